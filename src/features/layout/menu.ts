import { AFCON, CAMPAIGNS, type CampaignScreenEntry } from '../../domain/campaigns';
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

/** DESIGN §7: finance's refunds and reconciliation with the payment provider, for admin and super-user. */
const FINANCE_GROUP: MenuEntry[] = [
  { ...REFUNDS, group: 'Finance' },
  { label: 'Reconciliation', path: '/reconciliation', group: 'Finance' },
];

/** The audit trail of every staff action, for admin and super-user (the API refuses anyone else). */
const OVERSIGHT_GROUP: MenuEntry[] = [{ label: 'Audit trail', path: '/audit', group: 'Oversight' }];

/** SPEC §2 sidebar: the Afcon-only account sees only the Afcon menu, customer care the calls' screens; admins see four more entries, the campaigns, finance and oversight. */
export function menuFor(user: Pick<LoginUser, 'role' | 'isAfcon' | 'twoFactorSetupRequired'> | null): MenuEntry[] {
  if (!user) return [];
  if (user.twoFactorSetupRequired) return ENROL_FIRST;
  if (user.isAfcon) return AFCON_ONLY;
  if (isCustomerCare(user.role)) return [...CUSTOMER_CARE, REFUNDS];
  return isManager(user.role) ? [...REGULAR, ...MANAGER_EXTRA, ...CAMPAIGNS_GROUP, ...FINANCE_GROUP, ...OVERSIGHT_GROUP] : REGULAR;
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
  const screen = SAME_SCREEN[path] ?? path;
  return EVERYONE.includes(screen) || menuFor(user).some((entry) => entry.path === screen);
}
