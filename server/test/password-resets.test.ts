import { desc, eq } from 'drizzle-orm';
import * as passwords from '../src/auth/passwords';
import { FORGOT_PASSWORD_PER_ADDRESS, RESET_MAILS_PER_ACCOUNT, RESET_MAX_FAILURES, resetPasswordWithToken } from '../src/auth/password-resets';
import { randomToken, sha256 } from '../src/auth/sessions';
import { allowedHosts, loadConfig } from '../src/config';
import { mailOutbox, passwordResets, users } from '../src/db/schema';
import { HttpError } from '../src/http/http-error';
import { localMailProvider, type MailProvider } from '../src/providers/mail';
import { buildTestWorld, eventually, TEST_PASSWORD, type TestWorld } from './helpers';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld({ allowedHosts: ['desk.example', 'localhost'] });
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

let addresses = 0;
/** A POST from an address of its own (the world trusts no proxy, so X-Forwarded-For would not count): each test keeps its own per-address limit. */
const postFrom = (app: TestWorld['app'], address: string) => (url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload, headers, remoteAddress: address });
const freshAddress = () => `10.9.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

/**
 * Another API process to ask from. Closing it waits for the reset mail it has under way, so what
 * is not in the outbox once it is closed was never going to be sent.
 */
const askingProcess = (more: Parameters<TestWorld['anotherProcess']>[0] = {}) => world.anotherProcess(more);

const mailsTo = (to: string) => world.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt));
/** The token of the newest mail to `to`, waiting for it: mail goes out after the answer. */
async function mailedToken(to: string, count = 1) {
  await eventually(async () => (await mailsTo(to)).length >= count);
  const link = /(https?:\/\/\S+)/.exec((await mailsTo(to))[0].body)?.[1] ?? '';
  return { link, token: decodeURIComponent(link.split('?token=')[1]) };
}

describe('forgot and reset password', () => {
  it('mails a single-use link on an allowed Host; the new password signs in', async () => {
    const post = postFrom(world.app, freshAddress());
    const agent = await world.createUser('agent', { email: 'kato@example.com' });
    const asked = await post('/v1/auth/forgot-password', { email: 'Kato@Example.com', redirectUrl: 'https://evil.example/#/reset-password' }, { host: 'desk.example', 'x-forwarded-host': 'evil.example' });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe('Please visit your email Kato@Example.com to reset your password');
    const { link, token } = await mailedToken('Kato@Example.com');
    // The link stays on our own host, keeps the hash route and carries the token.
    expect(link.startsWith('http://desk.example/#/reset-password?token=')).toBe(true);

    const short = await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([{ field: 'password', message: 'Password must be atleast 8 characters long' }]);
    expect((await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'brand-new-password' })).statusCode).toBe(200);
    expect((await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'another-password' })).statusCode).toBe(400);
    expect((await post('/v1/auth/login', { userName: agent.userName, password: TEST_PASSWORD })).statusCode).toBe(401);
    expect((await post('/v1/auth/login', { userName: agent.userName, password: 'brand-new-password' })).statusCode).toBe(200);
  });

  it('answers the same to a Host outside ALLOWED_HOSTS and mails nothing; PUBLIC_URL is used whatever the Host', async () => {
    await world.createUser('agent', { email: 'host@example.com' });
    const asking = await askingProcess();
    const fromElsewhere = postFrom(asking, freshAddress());
    for (const host of ['evil.example', 'desk.example.evil.example', 'localhost.evil.example:80']) {
      const asked = await fromElsewhere('/v1/auth/forgot-password', { email: 'host@example.com' }, { host });
      expect(asked.statusCode).toBe(200);
      expect(asked.json().message).toBe('Please visit your email host@example.com to reset your password');
    }
    await asking.close();
    expect(await mailsTo('host@example.com')).toEqual([]);
    const post = postFrom(world.app, freshAddress());
    expect((await post('/v1/auth/forgot-password', { email: 'host@example.com' }, { host: 'localhost:3000' })).statusCode).toBe(200);
    expect((await mailedToken('host@example.com')).link.startsWith('http://localhost:3000/reset-password?token=')).toBe(true);

    const behindProxy = await world.anotherProcess({ publicUrl: 'https://desk.example.com', allowedHosts: [] });
    await postFrom(behindProxy, freshAddress())('/v1/auth/forgot-password', { email: 'host@example.com' }, { host: 'evil.example' });
    expect((await mailedToken('host@example.com', 2)).link.startsWith('https://desk.example.com/reset-password?token=')).toBe(true);
  });

  it('answers an unknown address the same and sends nothing', async () => {
    const asking = await askingProcess();
    const response = await postFrom(asking, freshAddress())('/v1/auth/forgot-password', { email: 'nobody@example.com' });
    expect(response.statusCode).toBe(200);
    await asking.close();
    expect(await mailsTo('nobody@example.com')).toEqual([]);
  });

  it(`mails an account at most ${RESET_MAILS_PER_ACCOUNT} times in the window, answering every ask the same`, async () => {
    await world.createUser('agent', { email: 'many@example.com' });
    const asking = await askingProcess();
    const asks = await Promise.all(Array.from({ length: 8 }, () => postFrom(asking, freshAddress())('/v1/auth/forgot-password', { email: 'many@example.com' })));
    expect(new Set(asks.map((a) => `${a.statusCode} ${a.body}`)).size).toBe(1);
    await asking.close();
    expect(await mailsTo('many@example.com')).toHaveLength(RESET_MAILS_PER_ACCOUNT);
  });

  it(`answers 429 to an address past ${FORGOT_PASSWORD_PER_ADDRESS} asks, known addresses or not`, async () => {
    const post = postFrom(world.app, freshAddress());
    for (let i = 0; i < FORGOT_PASSWORD_PER_ADDRESS; i += 1) {
      expect((await post('/v1/auth/forgot-password', { email: `probe-${i}@example.com` })).statusCode).toBe(200);
    }
    const refused = await post('/v1/auth/forgot-password', { email: 'probe@example.com' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ status: false, message: 'Too many attempts, please try again in a few minutes' });
    expect((await postFrom(world.app, freshAddress())('/v1/auth/forgot-password', { email: 'probe@example.com' })).statusCode).toBe(200);
  });

  it('ends every other link of the user once one is used', async () => {
    const user = await world.createUser('agent', { email: 'links@example.com' });
    const post = postFrom(world.app, freshAddress());
    for (let i = 1; i <= 3; i += 1) await post('/v1/auth/forgot-password', { email: 'links@example.com' });
    await eventually(async () => (await mailsTo('links@example.com')).length === 3);
    const tokens = (await mailsTo('links@example.com')).map((mail) => decodeURIComponent(mail.body.split('?token=')[1].split(/\s/)[0]));
    expect((await post(`/v1/auth/reset-forgot-password/${tokens[0]}`, { password: 'chosen-password-a' })).statusCode).toBe(200);
    for (const token of tokens.slice(1)) expect((await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'chosen-password-b' })).statusCode).toBe(400);
    expect((await post('/v1/auth/login', { userName: user.userName, password: 'chosen-password-a' })).statusCode).toBe(200);
  });

  it('answers a known address without waiting on the mail', async () => {
    // A mail provider that sends nothing until the test lets it: an answer that waited on it would never come.
    let letMailGo = () => {};
    const mailHeld = new Promise<void>((resolve) => (letMailGo = resolve));
    const slowMail: MailProvider = {
      async send(message) {
        await mailHeld;
        await localMailProvider(world.db).send(message);
      },
    };
    const slow = await askingProcess({ providers: { mail: slowMail } });
    await world.createUser('agent', { email: 'slow@example.com' });
    const post = postFrom(slow, freshAddress());
    const timed = async (email: string) => {
      const started = performance.now();
      expect((await post('/v1/auth/forgot-password', { email })).statusCode).toBe(200);
      return performance.now() - started;
    };
    const known = await timed('slow@example.com');
    const unknown = await timed('nobody-slow@example.com');
    expect(await mailsTo('slow@example.com')).toEqual([]);
    expect(Math.abs(known - unknown)).toBeLessThan(500);
    letMailGo();
    await slow.close();
    expect(await mailsTo('slow@example.com')).toHaveLength(1);
  });

  it('refuses a link past its hour, a malformed address and a made-up token', async () => {
    const post = postFrom(world.app, freshAddress());
    await world.createUser('agent', { email: 'late@example.com' });
    await post('/v1/auth/forgot-password', { email: 'late@example.com' });
    const { token } = await mailedToken('late@example.com');
    await world.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.tokenHash, sha256(token)));
    expect((await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'long-enough-1' })).statusCode).toBe(400);
    const bad = await post('/v1/auth/forgot-password', { email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'email', message: 'Invalid email' }]);
    expect((await post('/v1/auth/reset-forgot-password/made-up-token', { password: 'long-enough-1' })).statusCode).toBe(400);
  });
});

describe('ALLOWED_HOSTS and PUBLIC_URL', () => {
  it('allow the bind address, localhost and 127.0.0.1 on the port by default, or the listed names', () => {
    expect(allowedHosts({})).toEqual(['127.0.0.1:3000', 'localhost:3000']);
    expect(allowedHosts({ HOST: '0.0.0.0', PORT: '8080' })).toEqual(['0.0.0.0:8080', 'localhost:8080', '127.0.0.1:8080']);
    expect(allowedHosts({ HOST: '::', PORT: '8080' })).toEqual(['[::]:8080', 'localhost:8080', '127.0.0.1:8080']);
    expect(allowedHosts({ ALLOWED_HOSTS: ' Desk.Example.com , desk.local:8080,' })).toEqual(['desk.example.com', 'desk.local:8080']);
  });

  it('refuse at start a PUBLIC_URL that is not an http(s) origin', () => {
    const config = (PUBLIC_URL: string) => loadConfig({ JWT_SECRET: 'x', PAYMENT_CALLBACK_SECRET: 'x', PUBLIC_URL });
    expect(config('https://desk.example.com/app/').publicUrl).toBe('https://desk.example.com');
    for (const bad of ['desk.example.com', 'javascript:alert(1)', 'ftp://desk.example.com']) expect(() => config(bad)).toThrow(/PUBLIC_URL/);
  });
});

describe('resetPasswordWithToken', () => {
  it('sets the password once from a live link and ends the sessions', async () => {
    const { user, token } = await linkFor();
    const { refreshToken, accessToken } = await world.login(user.userName);
    await resetPasswordWithToken(world.db, { token, password: 'brand-new-password', address: '10.0.0.1' });
    const [row] = await world.db.select().from(users).where(eq(users.id, user.id));
    expect(await passwords.verifyPassword(row.passwordHash, 'brand-new-password')).toBe(true);
    expect(await statusOf(resetPasswordWithToken(world.db, { token, password: 'another-password', address: '10.0.0.1' }))).toBe(400);
    const refreshed = await world.app.inject({ method: 'POST', url: '/v1/auth/refresh-token', payload: { token: refreshToken } });
    expect(refreshed.statusCode).toBe(401);
    // Another process, whose session check has not looked before, refuses the access token at once.
    const other = await world.anotherProcess();
    expect((await other.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization: `Bearer ${accessToken}` } })).statusCode).toBe(401);
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
    const guesses = await Promise.all(Array.from({ length: RESET_MAX_FAILURES + 5 }, (_, i) => statusOf(resetPasswordWithToken(world.db, { token: `guess-${i}`, password: TEST_PASSWORD, address: '10.0.0.3' }))));
    expect(guesses.sort()).toEqual([...Array(RESET_MAX_FAILURES).fill(400), ...Array(5).fill(429)]);
    const { token } = await linkFor();
    expect(await statusOf(resetPasswordWithToken(world.db, { token, password: 'brand-new-password', address: '10.0.0.3' }))).toBe(429);
    expect(await statusOf(resetPasswordWithToken(world.db, { token, password: 'brand-new-password', address: '10.0.0.4' }))).toBe(200);
  });
});
