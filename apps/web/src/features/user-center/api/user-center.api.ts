import type {
  PasswordChangeBody,
  UserAccount,
  UserPreferences,
  UserPreferencesBody,
  UserProfile,
} from '@hpc/contracts';
import { apiClient } from '../../../shared/api/client';

export const userCenterApi = {
  profile: (signal?: AbortSignal) => apiClient.get<UserProfile>('/api/user/profile', undefined, { signal }),
  /** The user's accounts grouped over their centres, with status, balance and expiry (the alert bar's data). */
  accounts: (signal?: AbortSignal) =>
    apiClient.get<UserAccount[]>('/api/account/list', undefined, { signal }),
  changePassword: (body: PasswordChangeBody) => apiClient.post<null>('/api/user/password', { json: body }),
  preferences: (signal?: AbortSignal) =>
    apiClient.get<UserPreferences>('/api/user/preferences', undefined, { signal }),
  savePreferences: (body: UserPreferencesBody) =>
    apiClient.request<UserPreferences>('/api/user/preferences', { method: 'PUT', json: body }),
};
