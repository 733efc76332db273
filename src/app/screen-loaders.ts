import { routePathKey } from '../domain/first-visit';
import { CAMPAIGN_DESCRIPTORS } from '../features/campaigns/campaign-descriptors';

/**
 * Every screen's chunk loader; routes.tsx makes each a lazy screen. Each chunk is named
 * `screen-<name>`: the build lists every private path's files by these names
 * (preload-manifest.json), and the server has index.html preload them.
 */
export const SCREEN_LOADERS = {
  signIn: () => import(/* webpackChunkName: "screen-sign-in" */ '../features/auth/sign-in-screen'),
  signUp: () => import(/* webpackChunkName: "screen-sign-up" */ '../features/auth/sign-up-screen'),
  forgotPassword: () => import(/* webpackChunkName: "screen-forgot-password" */ '../features/auth/forgot-password-screen'),
  resetPassword: () => import(/* webpackChunkName: "screen-reset-password" */ '../features/auth/reset-password-screen'),
  notFound: () => import(/* webpackChunkName: "screen-not-found" */ '../features/errors/not-found-screen'),
  serverError: () => import(/* webpackChunkName: "screen-server-error" */ '../features/errors/server-error-screen'),
  settings: () => import(/* webpackChunkName: "screen-settings" */ '../features/settings/settings-screen'),
  profile: () => import(/* webpackChunkName: "screen-profile" */ '../features/profile/profile-screen'),
  users: () => import(/* webpackChunkName: "screen-users" */ '../features/users/users-screen'),
  dashboard: () => import(/* webpackChunkName: "screen-dashboard" */ '../features/dashboard/dashboard-screen'),
  transactions: () => import(/* webpackChunkName: "screen-transactions" */ '../features/transactions/transactions-screen'),
  failedTransactions: () => import(/* webpackChunkName: "screen-failed-transactions" */ '../features/transactions/failed-transactions-screen'),
  transactionSearch: () => import(/* webpackChunkName: "screen-transaction-search" */ '../features/transactions/transaction-search-screen'),
  categories: () => import(/* webpackChunkName: "screen-categories" */ '../features/categories/categories-screen'),
  serviceCodes: () => import(/* webpackChunkName: "screen-service-codes" */ '../features/service-codes/service-codes-screen'),
  contents: () => import(/* webpackChunkName: "screen-contents" */ '../features/contents/contents-screen'),
  sms: () => import(/* webpackChunkName: "screen-sms" */ '../features/sms/sms-screen'),
  reconciliation: () => import(/* webpackChunkName: "screen-reconciliation" */ '../features/reconciliation/reconciliation-screen'),
  incidents: () => import(/* webpackChunkName: "screen-incidents" */ '../features/incidents/incidents-screen'),
  refunds: () => import(/* webpackChunkName: "screen-refunds" */ '../features/refunds/refunds-screen'),
  audit: () => import(/* webpackChunkName: "screen-audit" */ '../features/audit/audit-screen'),
  customer: () => import(/* webpackChunkName: "screen-customer" */ '../features/customers/customer-screen'),
  reports: () => import(/* webpackChunkName: "screen-reports" */ '../features/reports/reports-screen'),
  campaignList: () => import(/* webpackChunkName: "screen-campaign-list" */ '../features/campaigns/campaign-list-screen'),
  ranking: () => import(/* webpackChunkName: "screen-ranking" */ '../features/campaigns/ranking-screen'),
  campaignAdmin: () => import(/* webpackChunkName: "screen-campaign-admin" */ '../features/campaign-admin/campaign-admin-screen'),
  keyedCampaign: () => import(/* webpackChunkName: "screen-keyed-campaign" */ '../features/campaigns/keyed-campaign-screen'),
};

export type ScreenName = keyof typeof SCREEN_LOADERS;
/** The screens that take no props (all but the campaigns'). */
export type PlainScreenName = Exclude<ScreenName, 'campaignList' | 'ranking' | 'keyedCampaign'>;

/** The shell's screens by path (routes.tsx builds its private routes from this table); campaign paths come from their descriptors. */
export const PRIVATE_SCREEN_PATHS: Record<string, PlainScreenName> = {
  '/dashboard': 'dashboard',
  '/transactions': 'transactions',
  '/failed': 'failedTransactions',
  '/search': 'transactionSearch',
  '/settings': 'settings',
  '/account': 'profile',
  '/users': 'users',
  '/category': 'categories',
  '/categories/all': 'categories',
  '/categories/new': 'categories',
  '/service/code': 'serviceCodes',
  '/contents': 'contents',
  '/sms': 'sms',
  '/reconciliation': 'reconciliation',
  '/incidents': 'incidents',
  '/refunds': 'refunds',
  '/audit': 'audit',
  '/customers/:phone': 'customer',
  '/reports': 'reports',
  '/campaigns': 'campaignAdmin',
};

/** Every private path with the screen it shows; webpack.config.ts reads it for the preload manifest. */
export function privateScreenPaths(): [string, ScreenName][] {
  return [
    ...Object.entries(PRIVATE_SCREEN_PATHS),
    ...CAMPAIGN_DESCRIPTORS.flatMap((campaign) =>
      campaign.screens.map((entry): [string, ScreenName] => [entry.path, entry.kind === 'ranking' ? 'ranking' : 'campaignList']),
    ),
  ];
}

const SCREEN_AT_PATH = new Map(privateScreenPaths().map(([path, name]) => [routePathKey(path), name]));

/**
 * Starts downloading the screen a private deep link (or a reload) shows before the shell renders.
 * The server's index.html has usually preloaded it already; this covers the dev server. Public
 * paths are left to their guards, which may go elsewhere.
 */
export function preloadScreen(pathname: string): void {
  const name = SCREEN_AT_PATH.get(routePathKey(pathname));
  if (name) void SCREEN_LOADERS[name]().catch(() => undefined);
}
