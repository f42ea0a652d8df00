export { AccountAlertBar } from './account-alert-bar';
export { useAccountAlerts } from './use-account-alerts';
export { alertMessages, alertSignature, sortAlerts } from './account-alerts';
