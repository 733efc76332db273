import { lazy, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { defaultExport } from '../components/lazy-import';
import { CAMPAIGN_DESCRIPTORS } from '../features/campaigns/campaign-descriptors';
import AppShell from '../features/layout/app-shell';
import { RootLayout } from './root-layout';
import { SCREEN_LOADERS } from './screen-loaders';
import { PrivateRoute, PublicRoute } from './route-guards';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type ScreenModule<P = {}> = { default: ComponentType<P> | { default: ComponentType<P> } };

/**
 * Every screen is its own chunk, so the sign-in page never loads the DataGrid. The private shell
 * comes with the route table: every private route needs it, and as a parent of the screens it
 * keeps the MUI parts they share with it (Divider, Toolbar, Stack...) out of their chunks.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const screen = <P extends object = {}>(load: () => Promise<ScreenModule<P>>) => lazy(async () => ({ default: defaultExport(await load()) }));

const SignInScreen = screen(SCREEN_LOADERS.signIn);
const SignUpScreen = screen(SCREEN_LOADERS.signUp);
const ForgotPasswordScreen = screen(SCREEN_LOADERS.forgotPassword);
const ResetPasswordScreen = screen(SCREEN_LOADERS.resetPassword);
const NotFoundScreen = screen(SCREEN_LOADERS.notFound);
const ServerErrorScreen = screen(SCREEN_LOADERS.serverError);
const SettingsScreen = screen(SCREEN_LOADERS.settings);
const ProfileScreen = screen(SCREEN_LOADERS.profile);
const UsersScreen = screen(SCREEN_LOADERS.users);
const DashboardScreen = screen(SCREEN_LOADERS.dashboard);
const TransactionsScreen = screen(SCREEN_LOADERS.transactions);
const FailedTransactionsScreen = screen(SCREEN_LOADERS.failedTransactions);
const TransactionSearchScreen = screen(SCREEN_LOADERS.transactionSearch);
const CategoriesScreen = screen(SCREEN_LOADERS.categories);
const ServiceCodesScreen = screen(SCREEN_LOADERS.serviceCodes);
const ContentsScreen = screen(SCREEN_LOADERS.contents);
const SmsScreen = screen(SCREEN_LOADERS.sms);
const CampaignListScreen = screen(SCREEN_LOADERS.campaignList);
const RankingScreen = screen(SCREEN_LOADERS.ranking);

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
