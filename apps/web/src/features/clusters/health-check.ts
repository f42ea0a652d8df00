import { HEALTH_PATH, joinServiceUrl, type ServiceKind } from './service-list';
import { OK } from '@hpc/contracts';

/** How long one instance may take to answer its health call before the next one is tried. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 5_000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const HEALTHY_TEXT = new Set(['ok', 'true', 'success']);
const healthyValue = (v: unknown) =>
  v === true || (typeof v === 'string' && HEALTHY_TEXT.has(v.trim().toLowerCase()));

/**
 * Whether a file-service answer says it is healthy: `check_result` "ok" (our efile's answer, contracts'
 * `CheckResponse`) or true, at the top level (the historical, unwrapped answer) or inside a `{code, msg, data}`
 * envelope; an envelope code other than "0" is a failure.
 */
export function isHealthyEfileAnswer(body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (typeof body.code === 'string' && body.code !== OK) return false;
  if (healthyValue(body.check_result)) return true;
  return isRecord(body.data) && healthyValue(body.data.check_result);
}

/**
 * Calls the health call of one service instance (spec §7). No token is sent: the health calls are public, and the
 * token belongs to the cluster's API calls, not to probing. Never throws: any failure is `false`.
 */
export async function checkServiceHealth(
  doFetch: typeof fetch,
  baseUrl: string,
  kind: ServiceKind,
  timeoutMs = DEFAULT_HEALTH_TIMEOUT_MS,
): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await doFetch(joinServiceUrl(baseUrl, HEALTH_PATH[kind]), {
      method: 'GET',
      headers: { accept: 'application/json' },
      cache: 'no-store',
      signal: controller.signal,
    });
    if (!res.ok) return false;
    if (kind !== 'efile') {
      // Shell and version calls only have to answer; an envelope, when there is one, must say "0".
      const text = await res.text();
      try {
        const body: unknown = JSON.parse(text);
        return !(isRecord(body) && typeof body.code === 'string' && body.code !== OK);
      } catch {
        return true;
      }
    }
    return isHealthyEfileAnswer(await res.json());
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
