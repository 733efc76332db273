import { AFCON, CAMPAIGNS, campaignScreenAt, isSpecCampaign, keyedCampaignScreens, type CampaignScreenEntry } from '../../domain/campaigns';
import type { LoginUser } from '../../domain/entities';
import { routePathKey } from '../../domain/first-visit';
import { isCustomerCare, isManager } from '../../domain/roles';

export interface MenuEntry {
  label: string;
  path: string;
  /** A heading shown above the first entry of its group, e.g. 'Campaigns'. */
  group?: string;
  /** A screen of one service code and day: its link carries the person's chosen ones. */
  carriesView?: boolean;
}

/** A role that requires two-factor sign-in, before it is on: the profile, where it is set up, and nothing else. */
const ENROL_FIRST: MenuEntry[] = [{ label: 'Profile', path: '/account' }];

/** Everyone reads the incidents the API scopes to them (the Afcon-only account, AFCON's). */
const INCIDENTS: MenuEntry = { label: 'Incidents', path: '/incidents' };

/** What customer care uses: every code's calls and incidents, no catalogue and no SMS compose. */
const CUSTOMER_CARE: MenuEntry[] = [
  { label: 'Dashboard', path: '/dashboard', carriesView: true },
  { label: 'Transactions', path: '/transactions', carriesView: true },
  { label: 'Trans search', path: '/search' },
  { label: 'Failed transactions', path: '/failed', carriesView: true },
  INCIDENTS,
];

/** A month per service code: agents read their own codes', managers every one's. */
const REPORTS: MenuEntry = { label: 'Reports', path: '/reports' };

const REGULAR: MenuEntry[] = [...CUSTOMER_CARE, { label: 'Content', path: '/contents' }, { label: 'Sms', path: '/sms' }, REPORTS];

/** Money back: customer care requests refunds, the managers decide on them (agents do neither). */
const REFUNDS: MenuEntry = { label: 'Refunds', path: '/refunds' };

const MANAGER_EXTRA: MenuEntry[] = [
  { label: 'Profile', path: '/account' },
  { label: 'Users', path: '/users' },
  { label: 'Category', path: '/category' },
  { label: 'Service code', path: '/service/code' },
];

// SPEC §2 names the Afcon-only account's entries.
const AFCON_ONLY_LABELS: Record<CampaignScreenEntry['kind'], string> = {
  transactions: 'Afcon Transactions',
  failed: 'Failed Transactions',
  search: 'Trans Search',
  ranking: 'Ranking',
};

const AFCON_ONLY: MenuEntry[] = [...AFCON.screens.map((entry) => ({ label: AFCON_ONLY_LABELS[entry.kind], path: entry.path })), INCIDENTS];

/** DESIGN §5: admin and super-user reach every campaign screen from one group. */
const CAMPAIGNS_GROUP: MenuEntry[] = CAMPAIGNS.flatMap((campaign) => campaign.screens).map((entry) => ({
  label: entry.menuLabel,
  path: entry.path,
  group: 'Campaigns',
}));

/** Where admins create, edit, publish and close campaigns, and see all of them with their totals. */
const ALL_CAMPAIGNS: MenuEntry = { label: 'All campaigns', path: '/campaigns', group: 'Campaigns' };

/** A campaign as `GET /v1/campaigns` lists it, as far as the menu reads it. */
export interface MenuCampaign {
  key: string;
  name: string;
  status: string;
}

/** The live campaigns other than SPEC's two (whose entries are SPEC's), each with its keyed screens. */
function liveCampaignEntries(campaigns: readonly MenuCampaign[]): MenuEntry[] {
  return campaigns
    .filter((campaign) => campaign.status === 'live' && !isSpecCampaign(campaign.key))
    .flatMap((campaign) => keyedCampaignScreens(campaign).map((entry) => ({ label: entry.menuLabel, path: entry.path, group: 'Campaigns' })));
}

/** DESIGN §7: finance's refunds and reconciliation with the payment provider, for admin and super-user. */
const FINANCE_GROUP: MenuEntry[] = [
  { ...REFUNDS, group: 'Finance' },
  { label: 'Reconciliation', path: '/reconciliation', group: 'Finance' },
];

/** The audit trail of every staff action, for admin and super-user (the API refuses anyone else). */
const OVERSIGHT_GROUP: MenuEntry[] = [{ label: 'Audit trail', path: '/audit', group: 'Oversight' }];

/**
 * SPEC §2 sidebar: the Afcon-only account sees only the Afcon menu, customer care the calls'
 * screens; admins see four more entries, the campaigns (SPEC's two, then each other live one of
 * `campaigns`, then All campaigns), finance and oversight.
 */
export function menuFor(user: Pick<LoginUser, 'role' | 'isAfcon' | 'twoFactorSetupRequired'> | null, campaigns: readonly MenuCampaign[] = []): MenuEntry[] {
  if (!user) return [];
  if (user.twoFactorSetupRequired) return ENROL_FIRST;
  if (user.isAfcon) return AFCON_ONLY;
  if (isCustomerCare(user.role)) return [...CUSTOMER_CARE, REFUNDS];
  if (!isManager(user.role)) return REGULAR;
  return [...REGULAR, ...MANAGER_EXTRA, ...CAMPAIGNS_GROUP, ...liveCampaignEntries(campaigns), ALL_CAMPAIGNS, ...FINANCE_GROUP, ...OVERSIGHT_GROUP];
}

/**
 * A campaign's keyed screen (`/campaigns/{key}/…`): any campaign's, draft and closed ones too, for
 * admin and super-user; the Afcon-only account its own campaign's alone.
 */
function mayOpenCampaignScreen(user: Pick<LoginUser, 'role' | 'isAfcon' | 'twoFactorSetupRequired'> | null, path: string): boolean {
  const screen = campaignScreenAt(path);
  if (!screen || !user || user.twoFactorSetupRequired) return false;
  return user.isAfcon ? screen.key === AFCON.key : isManager(user.role);
}

/** Screens anyone signed in may open without a menu entry: their profile (DESIGN §5) and the settings. */
const EVERYONE = ['/account', '/settings'];
const CUSTOMER_PAGE = /^\/customers\/[^/]+$/;
/** Paths that show a menu entry's screen under another name. */
const SAME_SCREEN: Record<string, string> = { '/categories/all': '/category', '/categories/new': '/category' };

/**
 * Whether the person may open the screen at `pathname`: what their menu offers, plus
 * EVERYONE's. The server refuses the rest anyway; the shell shows NoAccess instead of asking it.
 */
export function canOpen(user: Pick<LoginUser, 'role' | 'isAfcon' | 'twoFactorSetupRequired'> | null, pathname: string): boolean {
  const path = routePathKey(pathname);
  // A customer's page is opened from any list's phone number, by whoever reads those lists.
  if (CUSTOMER_PAGE.test(path)) return menuFor(user).some((entry) => entry.path === '/search');
  if (mayOpenCampaignScreen(user, path)) return true;
  const screen = SAME_SCREEN[path] ?? path;
  return EVERYONE.includes(screen) || menuFor(user).some((entry) => entry.path === screen);
}
