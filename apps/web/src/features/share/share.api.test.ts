import { describe, expect, it } from 'vitest';
import { ApiError } from '@hpc/api-client';
import { shareErrorKey } from './share.api';

const err = (code: string, status: number, kind: 'api' | 'http' = 'api') =>
  new ApiError({ code, msg: 'x', status, kind });

describe('shareErrorKey', () => {
  it('translates the recipient failures', () => {
    expect(shareErrorKey(err('1026', 403))).toBe('errors.1026');
    expect(shareErrorKey(err('1509', 410))).toBe('errors.1509');
    expect(shareErrorKey(err('LINK_CLOSED', 410))).toBe('errors.LINK_CLOSED');
    expect(shareErrorKey(err('429', 429))).toBe('errors.429');
    expect(shareErrorKey(err('1406', 401))).toBe('share.tokenExpired');
    expect(shareErrorKey(err('404', 404, 'http'))).toBe('share.notFound');
  });
});
