import type { ServerText } from '@hpc/contracts';

/** The server kit's messages for the occasion, in both languages (DECISIONS.md, "Server messages"). */
export const ServerKitText = {
  // auth/cluster-token.ts
  missingToken: { en: 'Missing token', zh: '缺少令牌' },
  invalidToken: (reason: string) => ({ en: `Invalid token: ${reason}`, zh: `令牌无效：${reason}` }),
  invalidTokenClaims: { en: 'Invalid token claims', zh: '令牌声明无效' },
  tokenOverLifetimeCap: (hours: string) => ({
    en: `Invalid token: lifetime over the ${hours} h cap`,
    zh: `令牌无效：有效期超过 ${hours} 小时的上限`,
  }),

  // auth/csrf.ts
  crossSiteRefused: { en: 'Cross-site request refused', zh: '已拒绝跨站请求' },
  foreignOriginRefused: { en: 'Request from a foreign origin refused', zh: '已拒绝来自其他源的请求' },

  // auth/request-time.ts
  malformedRequestTime: { en: 'Malformed request-time header', zh: 'request-time 请求头格式错误' },
  missingHeader: (header: string) => ({ en: `Missing ${header} header`, zh: `缺少 ${header} 请求头` }),

  // auth/revocation.ts
  sessionEnded: { en: 'The session has ended: log in again', zh: '会话已结束：请重新登录' },
  tokenRevoked: { en: 'This token has been revoked', zh: '此令牌已被吊销' },

  // kv.ts
  redisUnavailable: {
    en: 'Shared state (Redis) is unavailable; please try again later',
    zh: '共享状态（Redis）不可用，请稍后再试',
  },
} satisfies Record<string, ServerText | ((...values: never[]) => ServerText)>;
