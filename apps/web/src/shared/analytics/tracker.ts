import { local } from '../utils/storage';

/** spec §7: a heartbeat every 5 s while the page is shown, for at most 432000 s (5 days) per page view. */
export const HEARTBEAT_MS = 5_000;
export const MAX_TRACKED_SECONDS = 432_000;

const VISITOR_KEY = 'hpc.analytics.visitor';

export interface AnalyticsEvent {
  type: 'pageview' | 'heartbeat';
  /** A random id of this browser (no user data). */
  visitor: string;
  /** The host the page was served from (one of the configured production hosts). */
  host: string;
  /** Path and query of the page. */
  page: string;
  title: string;
  referrer: string;
  /** Seconds the page has been shown (heartbeats). */
  seconds?: number;
  at: number;
}

function visitorId(): string {
  let id = local.get(VISITOR_KEY);
  if (!id) {
    id = crypto.randomUUID();
    local.set(VISITOR_KEY, id);
  }
  return id;
}

/**
 * Sends one event. A beacon survives the page being left; `text/plain` keeps it a simple request, so a tracker on
 * another origin needs no CORS preflight.
 */
export function send(trackerUrl: string, event: AnalyticsEvent): void {
  const body = new Blob([JSON.stringify(event)], { type: 'text/plain;charset=UTF-8' });
  if (navigator.sendBeacon?.(trackerUrl, body)) return;
  void fetch(trackerUrl, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(() => undefined);
}

let heartbeat: ReturnType<typeof setInterval> | null = null;

/** A page view, then heartbeats for it while the page is visible, until the next page view or the maximum. */
export function trackPageView(trackerUrl: string, page: string): void {
  const base = () => ({
    visitor: visitorId(),
    host: window.location.host,
    page,
    title: document.title,
    referrer: document.referrer,
    at: Date.now(),
  });
  send(trackerUrl, { type: 'pageview', ...base() });
  if (heartbeat) clearInterval(heartbeat);
  let seconds = 0;
  heartbeat = setInterval(() => {
    if (document.visibilityState !== 'visible') return;
    seconds += HEARTBEAT_MS / 1000;
    if (seconds > MAX_TRACKED_SECONDS) {
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      return;
    }
    send(trackerUrl, { type: 'heartbeat', ...base(), seconds });
  }, HEARTBEAT_MS);
}
