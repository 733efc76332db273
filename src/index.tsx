// First: it requests the app's chunk, when this visit needs it, before the imports below run.
import { appAtOnce, loadApp } from './app-chunk';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setServiceTimeZone } from './domain/format';

// In the entry's own files but evaluated only when called: a visit that opens the app at once
// never runs the sign-in page's modules (a long task fewer on a slow phone).
const loadLightSignIn = () => import(/* webpackMode: "eager" */ './features/auth/light-sign-in');

/**
 * A tiny entry. A first visit to '/' without a stored session gets the light sign-in page
 * (React and a few MUI parts: bench:web's budget for '/'); the full app (redux, router, every
 * route) is a separate chunk loaded once that person signs in, or at once for any other path
 * or a stored session.
 */
// The zone the server runs with (TZ_NAME): it writes it into index.html when it serves the page.
const zone = document.querySelector<HTMLMetaElement>('meta[name="service-time-zone"]')?.content;
// setServiceTimeZone checks the name itself (once: the first check is the costly one).
if (zone) {
  try {
    setServiceTimeZone(zone);
  } catch {
    // An unknown name leaves the default zone.
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

if (appAtOnce) {
  void appAtOnce.then(({ bootApp }) => bootApp(root));
} else {
  void loadLightSignIn().then(({ LightSignIn }) =>
    root.render(
      <StrictMode>
        <LightSignIn onSignedIn={async (session) => (await loadApp()).bootApp(root, session)} />
      </StrictMode>,
    ),
  );
}
