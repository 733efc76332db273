// First: it requests the app's chunk, when this visit needs it, before the imports below run.
import { appAtOnce, loadApp } from './app-chunk';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isTimeZone, setServiceTimeZone } from './domain/format';
import { LightSignIn } from './features/auth/light-sign-in';

/**
 * A tiny entry. A first visit to '/' without a stored session gets the light sign-in page
 * (React and a few MUI parts: bench:web's budget for '/'); the full app (redux, router, every
 * route) is a separate chunk loaded once that person signs in, or at once for any other path
 * or a stored session.
 */
// The zone the server runs with (TZ_NAME): it writes it into index.html when it serves the page.
const zone = document.querySelector<HTMLMetaElement>('meta[name="service-time-zone"]')?.content;
if (zone && isTimeZone(zone)) setServiceTimeZone(zone);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

if (appAtOnce) {
  void appAtOnce.then(({ bootApp }) => bootApp(root));
} else {
  root.render(
    <StrictMode>
      <LightSignIn onSignedIn={async (session) => (await loadApp()).bootApp(root, session)} />
    </StrictMode>,
  );
}
