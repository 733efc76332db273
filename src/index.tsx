// app-chunk.ts requests the app's chunk before React and MUI are evaluated: webpack.config.ts
// makes it the entry's first module, which an import here alone would not guarantee, as webpack
// hoists a concatenated module's imports.
import { appAtOnce, loadApp } from './app-chunk';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setServiceTimeZone } from './domain/format';
import { yieldToMain } from './app/yield-to-main';

// In the entry's own files but evaluated only when called: a visit that opens the app at once
// never runs the sign-in page's modules (a long task fewer on a slow phone).
const loadSignInPage = () => import(/* webpackMode: "eager" */ './features/auth/sign-in-page');

/**
 * A tiny entry. A first visit to '/' without a stored session gets the sign-in page alone
 * (React and a few MUI parts: bench:web's budget for '/'); the full app (redux, router, every
 * route) is a separate chunk loaded once that person signs in, or at once for any other path
 * or a stored session.
 */
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

/** The zone the server runs with (TZ_NAME): it writes it into index.html when it serves the page. */
function readServiceTimeZone() {
  const zone = document.querySelector<HTMLMetaElement>('meta[name="service-time-zone"]')?.content;
  if (!zone) return;
  // setServiceTimeZone checks the name itself, once: the first check is the costly one.
  try {
    setServiceTimeZone(zone);
  } catch {
    // An unknown name leaves the default zone.
  }
}

async function start() {
  // The zone's check (the runtime's first time-zone lookup: 35 ms here, 140 ms at 4× slower CPU)
  // gets a task of its own rather than lengthening the one that evaluated React and MUI, or the
  // one that evaluates the store after it.
  await yieldToMain();
  readServiceTimeZone();
  await yieldToMain();
  if (appAtOnce) {
    await (await appAtOnce).bootApp(root);
    return;
  }
  const { StandaloneSignIn } = await loadSignInPage();
  root.render(
    <StrictMode>
      <StandaloneSignIn onSignedIn={async (session) => (await loadApp()).bootApp(root, session)} />
    </StrictMode>,
  );
}

void start();
