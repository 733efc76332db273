/**
 * Where each screen's chunk comes from, by path. The route table lazy-loads screens from here, and
 * the entry (src/index.tsx) starts loading the screen of the page being opened at the same time
 * as the app itself, instead of after it: one round trip fewer before a deep link or a reload
 * paints (issue 11, Lighthouse's LCP on /transactions). Only import() calls live here, so the
 * entry stays small.
 */
export const SCREEN_LOADERS = {
  signIn: () => import('../features/auth/sign-in-screen'),
  signUp: () => import('../features/auth/sign-up-screen'),
  forgotPassword: () => import('../features/auth/forgot-password-screen'),
  resetPassword: () => import('../features/auth/reset-password-screen'),
  notFound: () => import('../features/errors/not-found-screen'),
  serverError: () => import('../features/errors/server-error-screen'),
  settings: () => import('../features/settings/settings-screen'),
  profile: () => import('../features/profile/profile-screen'),
  users: () => import('../features/users/users-screen'),
  dashboard: () => import('../features/dashboard/dashboard-screen'),
  transactions: () => import('../features/transactions/transactions-screen'),
  failedTransactions: () => import('../features/transactions/failed-transactions-screen'),
  transactionSearch: () => import('../features/transactions/transaction-search-screen'),
  categories: () => import('../features/categories/categories-screen'),
  serviceCodes: () => import('../features/service-codes/service-codes-screen'),
  contents: () => import('../features/contents/contents-screen'),
  sms: () => import('../features/sms/sms-screen'),
  campaignList: () => import('../features/campaigns/campaign-list-screen'),
  ranking: () => import('../features/campaigns/ranking-screen'),
};

/** The private screens a deep link most often opens, by path (campaign paths come from their descriptors, in the app chunk). */
const SCREEN_BY_PATH: Record<string, keyof typeof SCREEN_LOADERS> = {
  '/dashboard': 'dashboard',
  '/transactions': 'transactions',
  '/failed': 'failedTransactions',
  '/search': 'transactionSearch',
  '/settings': 'settings',
  '/account': 'profile',
  '/users': 'users',
  '/category': 'categories',
  '/service/code': 'serviceCodes',
  '/contents': 'contents',
  '/sms': 'sms',
};

/** Starts loading the screen at `pathname`, if it is one of those; the route's own lazy load then finds it loaded or on its way. */
export function preloadScreen(pathname: string): void {
  const screen = SCREEN_BY_PATH[pathname];
  // A failed preload is not an error: the route loads the screen again and shows its own error.
  if (screen) SCREEN_LOADERS[screen]().catch(() => undefined);
}
