import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './shared/i18n/i18n';
import './app/app.css';
import { App } from './app/app';
import { installAccount } from './features/account/install-account';
import { createQueryClient } from './shared/api/query-client';
import { createAppRouter } from './app/router';

// Session expiry, CSRF and request-time headers on every portal call, area mode: before the first request.
installAccount();
// The first render waits for the language's texts (one small chunk), so no screen shows untranslated keys.
const i18nReady = initI18n();
// The router loads the first page's code and data (route lazy + loaders) from now on, while the language texts load.
const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('#root missing in index.html');
// Rendered as a transition, React yields to the browser every few milliseconds instead of rendering the whole
// first screen in one long task: the answers of the requests started above are handled (and the next requests
// sent) while it renders, not after. On a first visit to E-File that let the listing start ~300 ms earlier.
void i18nReady.then(() =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>,
    ),
  ),
);
