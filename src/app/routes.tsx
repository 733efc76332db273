import { isValidElement, lazy, type ComponentType } from 'react';
import { matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
import { defaultExport } from '../components/lazy-import';
import { CAMPAIGN_DESCRIPTORS } from '../features/campaigns/campaign-descriptors';
import AppShell from '../features/layout/app-shell';
import { RootLayout } from './root-layout';
import { PrivateRoute, PublicRoute } from './route-guards';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type ScreenModule<P = {}> = { default: ComponentType<P> | { default: ComponentType<P> } };

/**
 * Every screen is its own chunk, so the sign-in page never loads the DataGrid. The private shell
 * comes with the route table: every private route needs it, and as a parent of the screens it
 * keeps the MUI parts they share with it (Divider, Toolbar, Stack...) out of their chunks.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const screen = <P extends object = {}>(load: () => Promise<ScreenModule<P>>) =>
  Object.assign(
    lazy(async () => ({ default: defaultExport(await load()) })),
    // Starts the chunk's download before React gets to render the screen (preloadScreen).
    { preload: load },
  );

const SignInScreen = screen(() => import('../features/auth/sign-in-screen'));
const SignUpScreen = screen(() => import('../features/auth/sign-up-screen'));
const ForgotPasswordScreen = screen(() => import('../features/auth/forgot-password-screen'));
const ResetPasswordScreen = screen(() => import('../features/auth/reset-password-screen'));
const NotFoundScreen = screen(() => import('../features/errors/not-found-screen'));
const ServerErrorScreen = screen(() => import('../features/errors/server-error-screen'));
const SettingsScreen = screen(() => import('../features/settings/settings-screen'));
const ProfileScreen = screen(() => import('../features/profile/profile-screen'));
const UsersScreen = screen(() => import('../features/users/users-screen'));
const DashboardScreen = screen(() => import('../features/dashboard/dashboard-screen'));
const TransactionsScreen = screen(() => import('../features/transactions/transactions-screen'));
const FailedTransactionsScreen = screen(() => import('../features/transactions/failed-transactions-screen'));
const TransactionSearchScreen = screen(() => import('../features/transactions/transaction-search-screen'));
const CategoriesScreen = screen(() => import('../features/categories/categories-screen'));
const ServiceCodesScreen = screen(() => import('../features/service-codes/service-codes-screen'));
const ContentsScreen = screen(() => import('../features/contents/contents-screen'));
const SmsScreen = screen(() => import('../features/sms/sms-screen'));
const CampaignListScreen = screen(() => import('../features/campaigns/campaign-list-screen'));
const RankingScreen = screen(() => import('../features/campaigns/ranking-screen'));

/**
 * Campaign screens (SPEC §2, DESIGN §3 and §5) are entries of the campaign descriptors. Keyed by
 * path, so moving between two rankings starts the next one on its own first page.
 */
const campaignRoutes: RouteObject[] = CAMPAIGN_DESCRIPTORS.flatMap((campaign) =>
  campaign.screens.map((entry) => ({
    path: entry.path,
    element:
      entry.kind === 'ranking' ? (
        <RankingScreen key={entry.path} campaign={campaign} screen={entry} />
      ) : (
        <CampaignListScreen key={entry.path} campaign={campaign} screen={entry} />
      ),
  })),
);

/** The whole product's route table; the browser and the tests' memory router both use it. */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <PublicRoute />,
        children: [
          { path: '/', element: <SignInScreen /> },
          { path: '/examples/sign-up', element: <SignUpScreen /> },
          { path: '/forgot-password', element: <ForgotPasswordScreen /> },
          { path: '/reset-password', element: <ResetPasswordScreen /> },
        ],
      },
      { path: '/examples/404', element: <NotFoundScreen /> },
      { path: '/examples/500', element: <ServerErrorScreen /> },
      {
        element: <PrivateRoute />,
        children: [
          {
            element: <AppShell />,
            children: [
              { path: '/dashboard', element: <DashboardScreen /> },
              { path: '/transactions', element: <TransactionsScreen /> },
              { path: '/failed', element: <FailedTransactionsScreen /> },
              { path: '/search', element: <TransactionSearchScreen /> },
              { path: '/settings', element: <SettingsScreen /> },
              { path: '/account', element: <ProfileScreen /> },
              { path: '/users', element: <UsersScreen /> },
              { path: '/category', element: <CategoriesScreen /> },
              { path: '/categories/all', element: <CategoriesScreen /> },
              { path: '/categories/new', element: <CategoriesScreen /> },
              { path: '/service/code', element: <ServiceCodesScreen /> },
              { path: '/contents', element: <ContentsScreen /> },
              { path: '/sms', element: <SmsScreen /> },
              ...campaignRoutes,
            ],
          },
        ],
      },
      // SPEC §2: an unmatched path goes to a public route.
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * Starts downloading the screen of `pathname` (a private deep link or a reload), as the app's code
 * is evaluated and before the shell renders: on a slow phone the screen's chunk then arrives while
 * the shell is drawn instead of after it (issue 11, Lighthouse). '/' is left to its guard.
 */
export function preloadScreen(pathname: string): void {
  if (pathname === '/') return;
  const matches = matchRoutes(appRoutes, pathname);
  const element = matches?.[matches.length - 1]?.route.element;
  const preload = isValidElement(element) ? (element.type as { preload?: () => Promise<unknown> }).preload : undefined;
  void preload?.().catch(() => undefined);
}
