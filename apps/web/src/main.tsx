import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shared/i18n/i18n';
import './app/app.css';
import { App } from './app/app';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing in index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
