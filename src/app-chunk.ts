import { hasStoredSession } from './state/persisted-storage';

/** The full app's chunk: store, router, every route (src/app/boot.tsx). */
export const loadApp = () => import(/* webpackChunkName: "app" */ './app/boot');

/**
 * The full app's chunk, requested at once when this visit opens the app (any path but '/', or a
 * stored session); null for the sign-in page shown alone. The entry imports this module first, so the
 * request leaves before React and MUI are evaluated: on a slow phone that evaluation is a third
 * of a second, which the app's download now overlaps instead of following.
 */
export const appAtOnce = window.location.pathname !== '/' || hasStoredSession() ? loadApp() : null;
