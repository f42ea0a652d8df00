import { describe, expect, it, vi } from 'vitest';
import { sendCancelOnLeave } from './running-operation';

describe('cancelling the running operation when the page goes away', () => {
  it('posts operationCancel with keepalive, the token header and a form body', () => {
    const doFetch = vi.fn((_url: RequestInfo | URL, _init?: RequestInit) =>
      Promise.resolve(new Response('{}')),
    );
    sendCancelOnLeave(
      { id: 'op1', mode: 'copy', clusterId: '11250', baseUrl: '/efile/11250/' },
      'tok',
      doFetch,
    );
    expect(doFetch).toHaveBeenCalledTimes(1);
    const [url, init] = doFetch.mock.calls[0]!;
    expect(url).toBe('/efile/11250/operationCancel.action');
    expect(init).toMatchObject({ method: 'POST', keepalive: true, body: 'operationId=op1&clusterId=11250' });
    expect((init!.headers as Record<string, string>).token).toBe('tok');
  });

  it('never throws, even when fetch does', () => {
    const boom = () => {
      throw new Error('gone');
    };
    expect(() =>
      sendCancelOnLeave(
        { id: 'x', mode: 'move', clusterId: 'c', baseUrl: 'https://e.example' },
        undefined,
        boom as unknown as typeof fetch,
      ),
    ).not.toThrow();
  });
});
