export const ROLES = ['agent', 'admin', 'super-user', 'customer-care'] as const;
export type Role = (typeof ROLES)[number];

/** Roles offered on the create form; customer care is shown but disabled (SPEC §2). */
export const ROLE_OPTIONS: { value: Role; label: string; disabled: boolean }[] = [
  { value: 'agent', label: 'Agent', disabled: false },
  { value: 'customer-care', label: 'Customer care', disabled: true },
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

/** SPEC §2: users with role admin or super-user cannot be edited from the users table. */
export function isEditableRole(role: string): boolean {
  return !isManager(role);
}
