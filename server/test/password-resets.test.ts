import { eq } from 'drizzle-orm';
import * as passwords from '../src/auth/passwords';
import { RESET_MAX_FAILURES, resetPasswordWithToken } from '../src/auth/password-resets';
import { randomToken, sha256 } from '../src/auth/refresh-tokens';
import { passwordResets, users } from '../src/db/schema';
import { HttpError } from '../src/http';
import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
}, 60_000);
afterAll(() => world.close());

/** A user with a live reset link; answers the link's token. */
async function linkFor() {
  const user = await world.createUser('agent');
  const token = randomToken();
  await world.db.insert(passwordResets).values({ userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 60_000) });
  return { user, token };
}

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error instanceof HttpError ? error.statusCode : 500),
  );

describe('resetPasswordWithToken', () => {
  it('sets the password once from a live link and revokes the sessions', async () => {
    const { user, token } = await linkFor();
    const { refreshToken } = await world.login(user.userName);
    await resetPasswordWithToken(world.db, { token, password: 'brand-new-password', address: '10.0.0.1' });
    const [row] = await world.db.select().from(users).where(eq(users.id, user.id));
    expect(await passwords.verifyPassword(row.passwordHash, 'brand-new-password')).toBe(true);
    expect(await statusOf(resetPasswordWithToken(world.db, { token, password: 'another-password', address: '10.0.0.1' }))).toBe(400);
    const refreshed = await world.app.inject({ method: 'POST', url: '/v1/auth/refresh-token', payload: { token: refreshToken } });
    expect(refreshed.statusCode).toBe(401);
  });

  it('checks the token before paying for a hash', async () => {
    const hashing = jest.spyOn(passwords, 'hashPassword');
    try {
      expect(await statusOf(resetPasswordWithToken(world.db, { token: 'made-up', password: TEST_PASSWORD, address: '10.0.0.2' }))).toBe(400);
      expect(hashing).not.toHaveBeenCalled();
    } finally {
      hashing.mockRestore();
    }
  });

  it('answers 429 to an address after too many wrong tokens, even with a good one; other addresses go on', async () => {
    for (let i = 0; i < RESET_MAX_FAILURES; i += 1) {
      expect(await statusOf(resetPasswordWithToken(world.db, { token: `guess-${i}`, password: TEST_PASSWORD, address: '10.0.0.3' }))).toBe(400);
    }
    const { token } = await linkFor();
    expect(await statusOf(resetPasswordWithToken(world.db, { token, password: 'brand-new-password', address: '10.0.0.3' }))).toBe(429);
    expect(await statusOf(resetPasswordWithToken(world.db, { token, password: 'brand-new-password', address: '10.0.0.4' }))).toBe(200);
  });
});
