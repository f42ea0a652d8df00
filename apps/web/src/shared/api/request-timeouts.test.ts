import { afterEach, describe, expect, it, vi } from 'vitest';
import { isApiError } from '@hpc/api-client';
import { apiClient } from './client';
import { createEfileApi } from '../../features/efile/api/efile.api';
import { RequestTimeouts } from './request-options';

/** A fetch that never answers (until aborted), recording what it was asked. */
function hangingFetch() {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fn = vi.fn((url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string> });
    return new Promise<Response>((_, reject) =>
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** Runs `call` and reports after how many ms of fake time it failed with a timeout. */
async function timeoutAfter(call: () => Promise<unknown>, steps: number[]): Promise<number | null> {
  let failedAt: number | null = null;
  let now = 0;
  const p = call().catch((e: unknown) => {
    if (isApiError(e) && e.kind === 'timeout') failedAt = now;
  });
  for (const s of steps) {
    now += s;
    await vi.advanceTimersByTimeAsync(s);
  }
  await Promise.race([p, Promise.resolve()]);
  return failedAt;
}

describe('request clients (spec §9)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('are 30 s by default, 300 s on the main client and 3000 s on the second', () => {
    expect(RequestTimeouts).toEqual({ default: 30_000, main: 300_000, second: 3_000_000 });
  });

  it('the portal client gives up after 300 s, not at the 30 s default', async () => {
    vi.useFakeTimers();
    hangingFetch();
    expect(await timeoutAfter(() => apiClient.get('/api/user/info'), [30_000, 269_999, 1])).toBe(300_000);
  });

  it('the file service client gives up after 3000 s, asks for no cached answer, in the user’s language', async () => {
    vi.useFakeTimers();
    const calls = hangingFetch();
    const efile = createEfileApi('11250', '/efile/11250');
    expect(await timeoutAfter(() => efile.initInfo(), [300_000, 2_699_999, 1])).toBe(3_000_000);
    expect(calls[0]?.headers).toMatchObject({ 'cache-control': 'no-cache' });
    expect(calls[0]?.headers['accept-language']).toMatch(/^(zh-CN|en-US)$/);
  });
});
