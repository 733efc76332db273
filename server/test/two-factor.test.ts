import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { openSecret, sealSecret, twoFactorKeyFrom } from '../src/auth/two-factor-key';
import { users } from '../src/db/schema';
import { auditEntries, auditTableText } from './audit-fixtures';
import { buildTestWorld, sleep, TEST_PASSWORD, type TestWorld } from './helpers';

/**
 * Two-factor sign-in (TOTP): enrolment with a first code and ten recovery codes, the second step
 * of a sign-in, codes and recovery codes taken once, 5 wrong codes ending a challenge, turning it
 * off, an admin's reset, and the enrolment gate of REQUIRE_2FA_ROLES. The secret is kept sealed
 * and never recorded.
 */

jest.setTimeout(60_000);

const KEY = crypto.randomBytes(32);
let world: TestWorld;
let admin: Awaited<ReturnType<TestWorld['headersFor']>>;

beforeAll(async () => {
  world = await buildTestWorld({ twoFactorKey: KEY });
  admin = await world.headersFor('admin');
}, 60_000);
afterAll(() => world.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, app = world.app) => app.inject({ method: 'POST', url, headers, payload: payload as object });
const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/**
 * The codes of the test's 30 s step and the ones either side (all accepted during it); waits out
 * the last seconds of a step first, so the step does not turn during the test's few requests.
 */
async function clock() {
  if (30 - ((Date.now() / 1000) % 30) < 4) await sleep(4000);
  const epoch = Math.floor(Date.now() / 30_000) * 30;
  return (secret: string, steps: -1 | 0 | 1) => generateSync({ secret, epoch: epoch + steps * 30 });
}

/** An agent enrolled with the code of the step before: its secret and recovery codes. */
async function enrolledAgent(code: Awaited<ReturnType<typeof clock>>) {
  const user = await world.createUser('agent');
  const { accessToken } = await world.login(user.userName);
  const setup = (await post('/v1/auth/2fa/setup', {}, bearer(accessToken))).json().results;
  const enabled = await post('/v1/auth/2fa/enable', { code: code(setup.secret, -1) }, bearer(accessToken));
  expect(enabled.statusCode).toBe(200);
  return { user, accessToken, secret: setup.secret as string, recoveryCodes: enabled.json().results.recoveryCodes as string[] };
}

const login = (userName: string) => post('/v1/auth/login', { userName, password: TEST_PASSWORD });

describe('enrolment', () => {
  it('answers a secret and its otpauth URL, turns on with a first code and answers ten recovery codes; the secret is kept sealed', async () => {
    const code = await clock();
    const user = await world.createUser('agent');
    const { accessToken } = await world.login(user.userName);
    const setup = await post('/v1/auth/2fa/setup', {}, bearer(accessToken));
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json().results;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const url = new URL(otpauthUrl);
    expect([url.protocol, url.host, url.searchParams.get('secret'), url.searchParams.get('issuer')]).toEqual(['otpauth:', 'totp', secret, 'Dialdesk']);

    const wrong = await post('/v1/auth/2fa/enable', { code: '000000' }, bearer(accessToken));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([{ field: 'code', message: 'The code is wrong or was used already' }]);
    const enabled = await post('/v1/auth/2fa/enable', { code: code(secret, 0) }, bearer(accessToken));
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json().results;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await post('/v1/auth/2fa/setup', {}, bearer(accessToken))).statusCode).toBe(409);

    const [stored] = await world.db.select().from(users).where(eq(users.id, user.id));
    expect(stored.twoFactorSecret).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]);
    const [entry] = await auditEntries(world, admin.headers, { entityType: 'user', entityId: user.id });
    expect(entry).toMatchObject({ action: 'user.2fa-enable', actor: { _id: user.id }, changes: [{ field: 'twoFactorEnabled', before: false, after: true }] });
    expect(await auditTableText(world)).not.toContain(secret);
    const rows = (await world.app.inject({ method: 'GET', url: '/v1/users?page=1&limit=100', headers: admin.headers })).json().results.docs;
    expect(rows.find((row: { _id: string }) => row._id === user.id)).toMatchObject({ twoFactorEnabled: true });
  });

  it('answers bad bodies with field errors that do not echo them', async () => {
    const { accessToken } = await world.login((await world.createUser('agent')).userName);
    for (const payload of [{}, { code: '12345' }, { code: 'abcdef' }, { code: ['123456'] }, { code: 'x'.repeat(5000) }]) {
      const response = await post('/v1/auth/2fa/enable', payload, bearer(accessToken));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('code');
      expect(response.body).not.toContain('abcdef');
    }
    expect((await post('/v1/auth/2fa/enable', { code: '123456' }, bearer(accessToken))).statusCode).toBe(409);
    expect((await post('/v1/auth/2fa/setup', {})).statusCode).toBe(401);
  });
});

describe('signing in', () => {
  it('asks an enrolled account for a code: no tokens until the code; each code and recovery code works once', async () => {
    const code = await clock();
    const agent = await enrolledAgent(code);
    const first = await login(agent.user.userName);
    expect(first.statusCode).toBe(200);
    const { results } = first.json();
    expect(results).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });

    const verified = await post('/v1/auth/2fa/verify', { challenge: results.challenge, code: code(agent.secret, 0) });
    expect(verified.statusCode).toBe(200);
    const session = verified.json().results;
    expect(session).toMatchObject({ user: { id: agent.user.id }, accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect((await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: bearer(session.accessToken) })).statusCode).toBe(200);
    // The challenge is used up, and the same code does not open another one.
    expect((await post('/v1/auth/2fa/verify', { challenge: results.challenge, code: code(agent.secret, 1) })).statusCode).toBe(401);
    const replay = await post('/v1/auth/2fa/verify', { challenge: (await login(agent.user.userName)).json().results.challenge, code: code(agent.secret, 0) });
    expect(replay.statusCode).toBe(401);

    const recovery = agent.recoveryCodes[3].toUpperCase();
    const withRecovery = await post('/v1/auth/2fa/verify', { challenge: (await login(agent.user.userName)).json().results.challenge, recoveryCode: recovery });
    expect(withRecovery.statusCode).toBe(200);
    const again = await post('/v1/auth/2fa/verify', { challenge: (await login(agent.user.userName)).json().results.challenge, recoveryCode: recovery });
    expect(again.statusCode).toBe(401);
  });

  it('ends a challenge after 5 wrong codes: then even the right one is refused', async () => {
    const code = await clock();
    const agent = await enrolledAgent(code);
    const { challenge } = (await login(agent.user.userName)).json().results;
    for (let i = 0; i < 5; i += 1) {
      const wrong = await post('/v1/auth/2fa/verify', { challenge, code: '000000' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe('Incorrect code');
    }
    const ended = await post('/v1/auth/2fa/verify', { challenge, code: code(agent.secret, 0) });
    expect(ended.statusCode).toBe(401);
    expect(ended.json().message).toBe('This sign-in has ended; please sign in again');
    const failed = await auditEntries(world, admin.headers, { action: 'session.sign-in-failed', actor: agent.user.userName });
    expect(failed[0]).toMatchObject({ reason: 'Wrong two-factor code' });
  });

  it('refuses bad verify bodies with field errors, and unknown challenges with 401', async () => {
    const empty = await post('/v1/auth/2fa/verify', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.map((e: { field: string }) => e.field)).toEqual(['challenge', 'code']);
    expect((await post('/v1/auth/2fa/verify', { challenge: 'made-up', code: '123456' })).statusCode).toBe(401);
    expect((await post('/v1/auth/2fa/verify', { challenge: { a: 1 }, recoveryCode: ['x'] })).statusCode).toBe(400);
  });
});

describe('turning it off', () => {
  it('takes the password and a code; then the password alone signs in', async () => {
    const code = await clock();
    const agent = await enrolledAgent(code);
    const headers = bearer(agent.accessToken);
    const wrongPassword = await post('/v1/auth/2fa/disable', { password: 'not-the-password', code: code(agent.secret, 0) }, headers);
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().errors).toEqual([{ field: 'password', message: 'Wrong password' }]);
    expect((await post('/v1/auth/2fa/disable', { password: TEST_PASSWORD }, headers)).statusCode).toBe(400);
    expect((await post('/v1/auth/2fa/disable', { password: TEST_PASSWORD, code: code(agent.secret, 0) }, headers)).statusCode).toBe(200);
    expect((await login(agent.user.userName)).json().results.accessToken).toEqual(expect.any(String));
    expect((await post('/v1/auth/2fa/disable', { password: TEST_PASSWORD, code: '123456' }, headers)).statusCode).toBe(409);
    const [entry] = await auditEntries(world, admin.headers, { entityType: 'user', entityId: agent.user.id });
    expect(entry).toMatchObject({ action: 'user.2fa-disable', changes: [{ field: 'twoFactorEnabled', before: true, after: false }] });
  });

  it("lets an admin reset another account's two-factor, not their own", async () => {
    const code = await clock();
    const agent = await enrolledAgent(code);
    const reset = await post(`/v1/users/${agent.user.id}/2fa/reset`, {}, admin.headers);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().results).toMatchObject({ _id: agent.user.id, twoFactorEnabled: false });
    expect((await login(agent.user.userName)).json().results.accessToken).toEqual(expect.any(String));
    const [entry] = await auditEntries(world, admin.headers, { entityType: 'user', entityId: agent.user.id });
    expect(entry).toMatchObject({ action: 'user.2fa-reset', actor: { _id: admin.user.id } });
    expect((await post(`/v1/users/${admin.user.id}/2fa/reset`, {}, admin.headers)).statusCode).toBe(403);
    expect((await post(`/v1/users/${admin.user.id}/2fa/reset`, {}, bearer(agent.accessToken))).statusCode).toBe(403);
    expect((await post('/v1/users/00000000-0000-4000-8000-000000000000/2fa/reset', {}, admin.headers)).statusCode).toBe(404);
  });
});

describe('REQUIRE_2FA_ROLES', () => {
  it('lets a required role without two-factor reach only its set-up and the profile until it enrols', async () => {
    const gated = await world.anotherProcess({ requireTwoFactorRoles: ['admin', 'super-user'] });
    const code = await clock();
    const manager = await world.createUser('admin');
    const signedIn = await post('/v1/auth/login', { userName: manager.userName, password: TEST_PASSWORD }, {}, gated);
    expect(signedIn.json().results).toMatchObject({ twoFactorSetupRequired: true, accessToken: expect.any(String) });
    const headers = bearer(signedIn.json().results.accessToken);
    const read = (url: string) => gated.inject({ method: 'GET', url, headers });
    expect((await read('/v1/users?page=1')).statusCode).toBe(403);
    expect((await read('/v1/users?page=1')).json().message).toBe('Set up two-factor sign-in first');
    expect((await read('/v1/auth/profile')).statusCode).toBe(200);
    const { secret } = (await post('/v1/auth/2fa/setup', {}, headers, gated)).json().results;
    expect((await post('/v1/auth/2fa/enable', { code: code(secret, 0) }, headers, gated)).statusCode).toBe(200);
    expect((await read('/v1/users?page=1')).statusCode).toBe(200);

    // An agent is not required: its password alone signs in and reaches everything.
    const agent = await world.createUser('agent');
    const agentSession = (await post('/v1/auth/login', { userName: agent.userName, password: TEST_PASSWORD }, {}, gated)).json().results;
    expect(agentSession.twoFactorSetupRequired).toBeUndefined();
    expect((await gated.inject({ method: 'GET', url: '/v1/incidents/open-count', headers: bearer(agentSession.accessToken) })).statusCode).toBe(200);
  });
});

describe('the key the secrets are sealed with', () => {
  it('is made once in DATA_DIR, or read from TOTP_ENCRYPTION_KEY; a sealed secret opens only for its user and key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'totp-key-'));
    const made = twoFactorKeyFrom(undefined, dir);
    expect(twoFactorKeyFrom(undefined, dir).equals(made)).toBe(true);
    expect(fs.statSync(path.join(dir, 'totp-encryption-key')).mode & 0o777).toBe(0o600);
    expect(twoFactorKeyFrom(made.toString('hex'), '/nonexistent').equals(made)).toBe(true);
    expect(twoFactorKeyFrom(made.toString('base64'), '/nonexistent').equals(made)).toBe(true);
    expect(() => twoFactorKeyFrom('too-short', dir)).toThrow('TOTP_ENCRYPTION_KEY must be 32 bytes');
    const sealed = sealSecret(made, 'user-1', 'JBSWY3DPEHPK3PXPJBSWY3DP');
    expect(openSecret(made, 'user-1', sealed)).toBe('JBSWY3DPEHPK3PXPJBSWY3DP');
    expect(openSecret(made, 'user-2', sealed)).toBeUndefined();
    expect(openSecret(crypto.randomBytes(32), 'user-1', sealed)).toBeUndefined();
    fs.rmSync(dir, { recursive: true });
  });
});
