import { lazy, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { defaultExport } from '../components/lazy-import';
import { CAMPAIGN_SCREEN_KINDS } from '../domain/campaigns';
import { CAMPAIGN_DESCRIPTORS } from '../features/campaigns/campaign-descriptors';
import AppShell from '../features/layout/app-shell';
import { RootLayout } from './root-layout';
import { PRIVATE_SCREEN_PATHS, SCREEN_LOADERS, type PlainScreenName } from './screen-loaders';
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

// The campaign screens take their campaign as props; every other screen takes none.
const { campaignList, ranking, keyedCampaign, ...plainLoaders } = SCREEN_LOADERS;
const SCREENS = Object.fromEntries(
  Object.entries(plainLoaders).map(([name, load]) => [name, screen(load as () => Promise<ScreenModule>)]),
) as Record<PlainScreenName, ReturnType<typeof screen>>;
const CampaignListScreen = screen(campaignList);
const RankingScreen = screen(ranking);
const KeyedCampaignScreen = screen(keyedCampaign);
const SignInScreen = SCREENS.signIn;
const SignUpScreen = SCREENS.signUp;
const ForgotPasswordScreen = SCREENS.forgotPassword;
const ResetPasswordScreen = SCREENS.resetPassword;
const NotFoundScreen = SCREENS.notFound;
const ServerErrorScreen = SCREENS.serverError;

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

/** Every campaign's screens under its key (`/campaigns/{key}/ranking`), built from `GET /v1/campaigns`. */
const keyedCampaignRoutes: RouteObject[] = CAMPAIGN_SCREEN_KINDS.map((kind) => ({
  path: `/campaigns/:key/${kind}`,
  element: <KeyedCampaignScreen kind={kind} />,
}));

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
              ...Object.entries(PRIVATE_SCREEN_PATHS).map(([path, name]) => {
                const Screen = SCREENS[name];
                return { path, element: <Screen /> };
              }),
              ...campaignRoutes,
              ...keyedCampaignRoutes,
            ],
          },
        ],
      },
      // SPEC §2: an unmatched path goes to a public route.
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
