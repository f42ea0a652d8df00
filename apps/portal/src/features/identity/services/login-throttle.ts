import { PortalCodes } from '@hpc/contracts';
import { AppError, callerKey, createAttemptThrottle, type Attempt, type KvStore } from '@hpc/server-kit';

export interface ThrottlePolicy {
  maxPerUser: number;
  maxPerIp: number;
  windowMs: number;
}

/**
 * The login's rules for the shared failed-attempt throttle (`@hpc/server-kit` throttle.ts): per user name and per
 * client address, counted before the password is checked. Once either count is over its limit the attempt is refused
 * with 429 without checking the password, so guessing costs the attacker time and costs the server no argon2 work,
 * and a burst of parallel guesses gets no more checks than the limit. A success clears the user's count and takes
 * the attempt back from the address's.
 */
export function createLoginThrottle(kv: KvStore, policy: ThrottlePolicy) {
  const throttle = createAttemptThrottle(kv);
  return {
    /** Counts a login attempt; throws LOGIN_THROTTLED when it may not be checked. */
    async attempt(username: string, ip: string): Promise<Attempt> {
      const a = await throttle.attempt([
        {
          key: `login-fail:user:${username.toLowerCase()}`,
          max: policy.maxPerUser,
          windowMs: policy.windowMs,
          onSuccess: 'clear',
        },
        { key: `login-fail:ip:${callerKey(ip)}`, max: policy.maxPerIp, windowMs: policy.windowMs },
      ]);
      if (!a.allowed) {
        throw new AppError(PortalCodes.loginThrottled, undefined, {
          data: { retryAfterSeconds: Math.ceil(a.retryAfterMs / 1000) },
        });
      }
      return a;
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
