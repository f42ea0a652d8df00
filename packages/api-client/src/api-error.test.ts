import { describe, expect, it } from 'vitest';
import { ApiError, isTransient, type ApiErrorKind } from './api-error';

const err = (kind: ApiErrorKind, status: number, code = String(status)) =>
  new ApiError({ kind, status, code, msg: '' });

describe('isTransient', () => {
  it('holds when the service never answered (no connection, our deadline, a 5xx page in front of it), or said "later"', () => {
    expect(isTransient(err('network', 0))).toBe(true);
    expect(isTransient(err('timeout', 0))).toBe(true);
    for (const status of [500, 502, 503, 504]) expect(isTransient(err('http', status))).toBe(true);
    // "The service is unavailable, please try again later" (its store or the user's worker gone): 503 with 1001.
    expect(isTransient(err('api', 503, '1001'))).toBe(true);
  });

  it("never holds for the service's own answer, a 4xx page, our own cancel, or what is not an ApiError", () => {
    // Any other envelope is the service's own answer, a 500 among them: asking again would get the same.
    expect(isTransient(err('api', 500, '500'))).toBe(false);
    expect(isTransient(err('api', 200, '1020'))).toBe(false);
    expect(isTransient(err('http', 404))).toBe(false);
    expect(isTransient(err('http', 200))).toBe(false);
    expect(isTransient(err('cancelled', 0))).toBe(false);
    expect(isTransient(new Error('network'))).toBe(false);
    expect(isTransient(undefined)).toBe(false);
  });
});
