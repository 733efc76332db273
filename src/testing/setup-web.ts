import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

globalThis.__DIALDESK_API_URL__ = process.env.DIALDESK_API_URL;
// No route overlay and no MUI transitions under jsdom (src/components/motion.ts): they only made
// every test wait. The app keeps SPEC's 1000 ms overlay and MUI's animations.
globalThis.__DIALDESK_MOTION__ = { routeOverlayMs: 0, transitions: false };
// One default for every web test (and beforeAll): the first render of a file loads the lazy screens' code,
// which takes a while on a shared, busy machine (a screen test's first test took over 60 s in a loaded
// run of the whole suite). A ceiling, not a measure: a test that passes takes what it takes.
jest.setTimeout(180_000);
// findBy… and waitFor wait this long by default: a lazy module's first load (the DataGrid, a screen) can
// take seconds while CI runs the server and web projects side by side on two cores.
configure({ asyncUtilTimeout: 15_000 });
