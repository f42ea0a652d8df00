import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@hpc/api-client';
import { reportClusterUnauthorized, setUnauthorizedHandler } from './client';

describe('reportClusterUnauthorized (issue 25 §1.3)', () => {
  afterEach(() => setUnauthorizedHandler(null));

  it('hands a cluster service’s "session ended" (401, code 401) to the session-expiry handler, not its 1406', () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const ended = new ApiError({ kind: 'api', status: 401, code: '401', msg: 'The session has ended' });
    const badToken = new ApiError({ kind: 'api', status: 401, code: '1406', msg: 'Invalid token' });
    reportClusterUnauthorized(badToken);
    expect(handler).not.toHaveBeenCalled();
    reportClusterUnauthorized(ended);
    expect(handler).toHaveBeenCalledWith(ended);
  });
});
