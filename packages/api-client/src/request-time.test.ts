import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REQUEST_TIME_HEADER, REQUEST_TIME_PHRASE } from '@hpc/contracts';
import { encodeRequestTime, requestTimeHeaders } from './request-time';

/** An independent decoder (Node's Buffer and webcrypto), so the test does not just mirror the encoder. */
async function decode(value: string): Promise<string> {
  const bytes = Buffer.from(value, 'base64url');
  const raw = await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(REQUEST_TIME_PHRASE));
  const key = await webcrypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
  const clear = await webcrypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, 12) },
    key,
    bytes.subarray(12),
  );
  return new TextDecoder().decode(clear);
}

describe('request-time header', () => {
  it('carries the phrase and the time, encrypted with a fresh IV', async () => {
    const a = await encodeRequestTime(1_700_000_000_000);
    const b = await encodeRequestTime(1_700_000_000_000);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decode(a)).toBe(`${REQUEST_TIME_PHRASE}|1700000000000`);
  });

  it('is offered as a header object', async () => {
    const h = await requestTimeHeaders(42);
    expect(await decode(h[REQUEST_TIME_HEADER]!)).toBe(`${REQUEST_TIME_PHRASE}|42`);
  });
});
