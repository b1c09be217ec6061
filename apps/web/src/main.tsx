import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProvider } from './app/provider.tsx';
import { AppRoutes } from './app/router.tsx';
import { preloadApiClient } from './lib/api-client.ts';
import { loadMarketingScripts } from './lib/marketing.ts';
import './app/styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  </StrictMode>,
);

// After the first paint: warm the HTTP client, then load analytics.
window.addEventListener(
  'load',
  () => {
    preloadApiClient();
    void loadMarketingScripts();
  },
  { once: true },
);
