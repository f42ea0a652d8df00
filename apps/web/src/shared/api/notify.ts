import type { MessageInstance } from 'antd/es/message/interface';
import i18n from '../i18n/i18n';
import { errorMessage } from './error-message';

/**
 * The themed `message` API of Ant Design's <App>, registered by <MessageBridge> once the app is mounted, so that
 * code outside React (the query cache) can show messages in the current theme.
 */
let messageApi: MessageInstance | null = null;

export function registerMessageApi(api: MessageInstance | null): void {
  messageApi = api;
}

/** Shows the warning of spec §8 for a failed call; a cancelled one stays silent. */
export function notifyError(error: unknown): void {
  const text = errorMessage(error, i18n.t);
  if (!text || !messageApi) return;
  // Keyed by text: five queries failing the same way show one message, not five.
  void messageApi.warning({ content: text, key: text });
}

export function notifySuccess(text: string): void {
  void messageApi?.success({ content: text, key: text });
}
