import type { TFunction } from 'i18next';
import { isApiError } from '@hpc/api-client';
import { PortalCodes } from '@hpc/contracts';
import { errorMessage } from '../../shared/api/error-message';

/** The login form's own messages for its failures; anything else gets the app's usual message (spec §8). */
export function loginErrorMessage(error: unknown, t: TFunction): string | null {
  if (isApiError(error)) {
    if (error.code === PortalCodes.loginThrottled || error.status === 429) {
      const seconds = (error.data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
      return typeof seconds === 'number' && seconds > 0
        ? t('account.login.errors.throttledFor', { count: Math.ceil(seconds / 60) })
        : t('account.login.errors.throttled');
    }
    if (error.code === PortalCodes.loginFailed) return t('account.login.errors.wrongPassword');
    if (error.code === PortalCodes.requestTime) return t('account.login.errors.clock');
    if (error.code === PortalCodes.csrf) return t('account.login.errors.refused');
  }
  return errorMessage(error, t);
}
