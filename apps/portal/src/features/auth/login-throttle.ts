import type { KvStore } from '@hpc/server-kit';
import { AppError } from '@hpc/server-kit';

export interface ThrottlePolicy {
  maxPerUser: number;
  maxPerIp: number;
  windowMs: number;
}

/**
 * Counts failed logins per user name and per client address in the shared KvStore (so every instance sees the same
 * counts; Redis when scaled out). Once either count reaches its limit, further attempts are refused with 429 until
 * the window (started by the first failure) runs out, without checking the password, so guessing costs the
 * attacker time and costs the server no argon2 work. A success clears the user's count, not the address's.
 */
export function createLoginThrottle(kv: KvStore, policy: ThrottlePolicy) {
  const userKey = (username: string) => `login-fail:user:${username.toLowerCase()}`;
  const ipKey = (ip: string) => `login-fail:ip:${ip}`;
  return {
    async check(username: string, ip: string): Promise<void> {
      const [u, a] = await Promise.all([kv.get(userKey(username)), kv.get(ipKey(ip))]);
      if (Number(u ?? 0) >= policy.maxPerUser || Number(a ?? 0) >= policy.maxPerIp) {
        throw new AppError('LOGIN_THROTTLED', undefined, {
          data: { retryAfterSeconds: Math.ceil(policy.windowMs / 1000) },
        });
      }
    },
    async fail(username: string, ip: string): Promise<void> {
      await Promise.all([kv.incr(userKey(username), policy.windowMs), kv.incr(ipKey(ip), policy.windowMs)]);
    },
    async succeed(username: string): Promise<void> {
      await kv.del(userKey(username));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
