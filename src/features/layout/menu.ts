import type { LoginUser } from '../../domain/entities';
import { isManager } from '../../domain/roles';

export interface MenuEntry {
  label: string;
  path: string;
}

const REGULAR: MenuEntry[] = [
  { label: 'Dashboard', path: '/dashboard' },
  { label: 'Transactions', path: '/transactions' },
  { label: 'Trans search', path: '/search' },
  { label: 'Failed transactions', path: '/failed' },
  { label: 'Content', path: '/contents' },
  { label: 'Sms', path: '/sms' },
];

const MANAGER_EXTRA: MenuEntry[] = [
  { label: 'Profile', path: '/account' },
  { label: 'Users', path: '/users' },
  { label: 'Category', path: '/category' },
  { label: 'Service code', path: '/service/code' },
];

const AFCON: MenuEntry[] = [
  { label: 'Afcon Transactions', path: '/afcon/2024/transactions' },
  { label: 'Failed Transactions', path: '/afcon/2024/failed' },
  { label: 'Trans Search', path: '/afcon/2024/search' },
  { label: 'Ranking', path: '/afcon/2024/ranking' },
];

/** SPEC §2 sidebar: the Afcon-only account sees only the Afcon menu; admins see four more entries. */
export function menuFor(user: Pick<LoginUser, 'role' | 'isAfcon'> | null): MenuEntry[] {
  if (!user) return [];
  if (user.isAfcon) return AFCON;
  return isManager(user.role) ? [...REGULAR, ...MANAGER_EXTRA] : REGULAR;
}
