import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App/App.js';
import { LocaleProvider } from './i18n/LocaleProvider/LocaleProvider.js';
import './app/global.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <LocaleProvider>
        <App />
      </LocaleProvider>
    </StrictMode>,
  );
}
