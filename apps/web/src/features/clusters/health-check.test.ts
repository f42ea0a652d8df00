import { describe, expect, it, vi } from 'vitest';
import { checkServiceHealth, isHealthyEfileAnswer } from './health-check';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('isHealthyEfileAnswer', () => {
  it('accepts check_result "ok" or true at the top level or in the envelope data', () => {
    expect(isHealthyEfileAnswer({ check_result: 'ok', clusterId: '11250' })).toBe(true);
    expect(isHealthyEfileAnswer({ check_result: true })).toBe(true);
    expect(isHealthyEfileAnswer({ code: '0', msg: '', data: { check_result: true } })).toBe(true);
    expect(isHealthyEfileAnswer({ code: '0', data: { check_result: 'true' } })).toBe(true);
  });

  it('refuses false, missing, a failed code and non-objects', () => {
    expect(isHealthyEfileAnswer({ check_result: false })).toBe(false);
    expect(isHealthyEfileAnswer({ check_result: 'fail' })).toBe(false);
    expect(isHealthyEfileAnswer({ code: '0', data: {} })).toBe(false);
    expect(isHealthyEfileAnswer({ code: '1001', data: { check_result: true } })).toBe(false);
    expect(isHealthyEfileAnswer(null)).toBe(false);
    expect(isHealthyEfileAnswer('ok')).toBe(false);
  });
});

describe('checkServiceHealth', () => {
  it('calls the health path of each kind without a token', async () => {
    const f = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
      json({ code: '0', data: { check_result: true } }),
    );
    await checkServiceHealth(f, 'http://a/efile', 'efile');
    await checkServiceHealth(f, 'http://a/s/', 'eshell');
    await checkServiceHealth(f, 'http://a/g', 'gridview');
    expect(f.mock.calls.map((c) => c[0] as string)).toEqual([
      'http://a/efile/check.action',
      'http://a/s/sothisai/api/eshell/action/check',
      'http://a/g/login/getVersion.action',
    ]);
    const headers = f.mock.calls[0]![1]?.headers as Record<string, string>;
    expect(Object.keys(headers)).not.toContain('token');
  });

  it('is false on a bad status, a network failure or non-JSON file-service answers', async () => {
    expect(await checkServiceHealth(async () => json({}, 503), 'http://a', 'efile')).toBe(false);
    expect(
      await checkServiceHealth(
        async () => {
          throw new TypeError('fetch failed');
        },
        'http://a',
        'efile',
      ),
    ).toBe(false);
    expect(await checkServiceHealth(async () => new Response('<html>'), 'http://a', 'efile')).toBe(false);
  });

  it('accepts any 2xx answer of the other services unless its envelope code says otherwise', async () => {
    expect(await checkServiceHealth(async () => new Response('1.2.3'), 'http://a', 'gridview')).toBe(true);
    expect(await checkServiceHealth(async () => json({ code: '0' }), 'http://a', 'eshell')).toBe(true);
    expect(await checkServiceHealth(async () => json({ code: '500' }), 'http://a', 'eshell')).toBe(false);
  });

  it('gives up after the timeout', async () => {
    const hanging = (_u: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const started = Date.now();
    expect(await checkServiceHealth(hanging, 'http://a', 'efile', 50)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
