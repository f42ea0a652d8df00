import type { ServerText } from '@hpc/contracts';

/** The server kit's messages for the occasion, in both languages (DECISIONS.md, "Server messages"). */
export const ServerKitText = {
  // auth/cluster-token.ts
  missingToken: { en: 'Missing token', zh: '缺少令牌' },
  tokenExpired: { en: 'Invalid token: it has expired', zh: '令牌无效：已过期' },
  tokenForAnotherCluster: (clusterId: string) => ({
    en: `Invalid token: it is not for this cluster (${clusterId})`,
    zh: `令牌无效：不是本集群（${clusterId}）的令牌`,
  }),
  tokenNotFromPortal: {
    en: 'Invalid token: malformed, or not signed by the portal',
    zh: '令牌无效：格式错误，或不是门户签发的',
  },
  tokenKeysUnreadable: {
    en: "Invalid token: the portal's signing keys could not be read",
    zh: '令牌无效：无法读取门户的签名公钥',
  },
  invalidTokenClaims: { en: 'Invalid token claims', zh: '令牌声明无效' },
  tokenOverLifetimeCap: (hours: string) => ({
    en: `Invalid token: lifetime over the ${hours} h cap`,
    zh: `令牌无效：有效期超过 ${hours} 小时的上限`,
  }),

  // envelope-plugin.ts: Fastify's own refusals of a request's address or body, before any route runs.
  badUrl: {
    en: 'Invalid input: the address is not valid (a broken %-encoding)',
    zh: '输入无效：地址无效（% 编码有误）',
  },
  bodyNotJson: { en: 'Invalid input: the body is not valid JSON', zh: '输入无效：请求体不是有效的 JSON' },
  // json-body.ts
  bodyForbiddenKey: {
    en: 'Invalid input: the body names "__proto__" or "constructor.prototype", which no request may use',
    zh: '输入无效：请求体含有任何请求都不得使用的键“__proto__”或“constructor.prototype”',
  },
  emptyJsonBody: {
    en: 'Invalid input: the content type is application/json but the body is empty',
    zh: '输入无效：内容类型为 application/json，但请求体为空',
  },
  bodyLengthMismatch: {
    en: 'Invalid input: the body does not have the size its Content-Length says',
    zh: '输入无效：请求体的大小与 Content-Length 不符',
  },
  unsupportedMediaType: (type: string) => ({
    en: `Unsupported content type: ${type}`,
    zh: `不支持的内容类型：${type}`,
  }),
  missingMediaType: {
    en: 'Unsupported content type: the request has a body but no content type',
    zh: '不支持的内容类型：请求带有请求体，但没有内容类型',
  },

  // fastify.ts: refusals before routing (the router's, Node's HTTP parser's) and non-finite numbers.
  paramTooLong: (max: number) => ({
    en: `Invalid input: a part of the address is longer than ${max} characters`,
    zh: `输入无效：地址中有一段超过 ${max} 个字符`,
  }),
  notFiniteNumber: (field: string) => ({
    en: `Invalid input: ${field} must be a finite number`,
    zh: `输入无效：${field} 必须是有限的数字`,
  }),
  malformedRequest: {
    en: 'Invalid input: the request is not valid HTTP',
    zh: '输入无效：请求不是有效的 HTTP',
  },
  headersTooLarge: {
    en: 'Invalid input: the address or the headers of the request are too large',
    zh: '输入无效：请求的地址或请求头过大',
  },
  requestTimedOut: {
    en: 'Invalid input: the request did not arrive in time',
    zh: '输入无效：请求未能及时到达',
  },

  // auth/csrf.ts
  crossSiteRefused: { en: 'Cross-site request refused', zh: '已拒绝跨站请求' },
  foreignOriginRefused: { en: 'Request from a foreign origin refused', zh: '已拒绝来自其他源的请求' },

  // auth/request-time.ts
  malformedRequestTime: { en: 'Malformed request-time header', zh: 'request-time 请求头格式错误' },
  missingHeader: (header: string) => ({ en: `Missing ${header} header`, zh: `缺少 ${header} 请求头` }),

  // auth/revocation.ts
  sessionEnded: { en: 'The session has ended: log in again', zh: '会话已结束：请重新登录' },
  tokenRevoked: { en: 'This token has been revoked', zh: '此令牌已被吊销' },
  tooManyIssued: (max: number) => ({
    en: `Too many day tokens and Linux commands: at most ${max} in 24 hours; please try again later`,
    zh: `日令牌和 Linux 命令过多：24 小时内最多 ${max} 个，请稍后再试`,
  }),

  // kv.ts
  redisUnavailable: {
    en: 'Shared state (Redis) is unavailable; please try again later',
    zh: '共享状态（Redis）不可用，请稍后再试',
  },
} satisfies Record<string, ServerText | ((...values: never[]) => ServerText)>;
