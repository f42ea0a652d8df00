import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './shared/i18n/i18n';
import './app/app.css';
import { App } from './app/app';
import { installAccount } from './features/account/install-account';

// Session expiry, CSRF and request-time headers on every portal call, area mode: before the first request.
installAccount();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing in index.html');
// The first render waits for the language's texts (one small chunk), so no screen shows untranslated keys.
void initI18n().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
