import { requestTimeHeaders } from '@hpc/api-client';
import { setExtraHeaders, setUnauthorizedHandler } from '../../shared/api/client';
import { captureAreaMode } from './area-mode';
import { csrfHeaders } from './portal-headers';
import { handleSessionExpired } from './session-expiry';

/**
 * Connects identity to the shared API client; call once in main.tsx before the first render (area mode is read from
 * the address as the page loaded): every portal call carries the request-time header (spec §7) and the CSRF header,
 * and a 401 ends the session (closes the window in area mode, else goes to /login?redirect=…).
 */
export function installAccount(): void {
  captureAreaMode();
  setUnauthorizedHandler(handleSessionExpired);
  setExtraHeaders(async () => ({ ...(await requestTimeHeaders()), ...csrfHeaders() }));
}
