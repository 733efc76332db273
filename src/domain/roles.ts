export const ROLES = ['agent', 'admin', 'super-user', 'customer-care'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an admin creates accounts with: agents, and customer care for support staff (SPEC §2's disabled option, made real). */
export const CREATABLE_ROLES = ['agent', 'customer-care'] as const satisfies readonly Role[];
export type CreatableRole = (typeof CREATABLE_ROLES)[number];

/** Roles offered on the create form. */
export const ROLE_OPTIONS: { value: CreatableRole; label: string; disabled: boolean }[] = [
  { value: 'agent', label: 'Agent', disabled: false },
  { value: 'customer-care', label: 'Customer care', disabled: false },
];

export function roleLabel(role: string): string {
  switch (role) {
    case 'super-user':
    case 'super-admin':
      return 'Super user';
    case 'admin':
      return 'Admin';
    case 'customer-care':
      return 'Customer care';
    default:
      return 'Agent';
  }
}

/** Admin and super-user manage users, categories, service codes and read every service code. */
export function isManager(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'super-user' || role === 'super-admin';
}

/**
 * Who reads every service code's calls, failed lists, searches, timelines and incidents: the
 * managers, and customer care, whose support staff answer customers of any code.
 */
export function readsEveryCode(role: string | null | undefined): boolean {
  return isManager(role) || role === 'customer-care';
}

/** Customer care supports callers; it writes nothing to the catalogue and composes no SMS. */
export function isCustomerCare(role: string | null | undefined): boolean {
  return role === 'customer-care';
}

/** SPEC §2: users with role admin or super-user cannot be edited from the users table. */
export function isEditableRole(role: string): boolean {
  return !isManager(role);
}
