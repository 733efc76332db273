/** The admin the web tests' API starts with. */
export const TEST_ADMIN = { userName: 'admin', password: 'admin-password-1' } as const;
