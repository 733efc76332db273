import { eq, inArray } from 'drizzle-orm';
import type { FeedDelivery } from '../src/live/change-feed';
import { DEFAULT_INCIDENT_SETTINGS, incidentDetector } from '../src/live/incident-detector';
import { localMailProvider } from '../src/providers/mail';
import { incidents, mailOutbox, transactionEvents, transactions } from '../src/db/schema';
import { createCampaigns } from './campaign-fixtures';
import { buildTestWorld, eventually, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Incidents: the rules on fixed clocks, opened and closed once whichever instance sees it
 * first, announced on the live feed, mailed to the managers, and listed in the callers' scope.
 */

jest.setTimeout(60_000);

let world: TestWorld;
let code: string;
let agentHeaders: Record<string, string>;
let otherAgentHeaders: Record<string, string>;
let adminHeaders: Record<string, string>;
const heard: FeedDelivery[] = [];
const MINUTE = 60_000;
const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * MINUTE);
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  world = await buildTestWorld({ live: { batchMs: 5 } });
  await createCampaigns(world);
  const agent = await world.headersFor('agent');
  agentHeaders = agent.headers;
  otherAgentHeaders = (await world.headersFor('agent')).headers;
  adminHeaders = (await world.headersFor('admin', { email: 'ops@example.com' })).headers;
  code = (await createCatalogue(world, agent.user.id)).code.name;
  world.app.live.feed.subscribe((delivery) => heard.push(delivery));
});
afterAll(() => world.close());

/** `n` calls of `code` created `minutesAgo` before `now`: processed, failed or pending. */
const calls = (serviceCode: string, now: Date, minutesAgo: number, n: number, values: Partial<typeof transactions.$inferInsert>) =>
  insertTransactions(world, serviceCode, Array.from({ length: n }, () => ({ createdAt: at(now, -minutesAgo), ...values })));
const processed = { isComplete: true };
const failed = { isDeleted: true };
const heardIncidents = () => heard.flatMap((delivery) => (delivery.kind === 'change' ? delivery.incidents : []));

describe('failure-rate', () => {
  const now = new Date('2024-05-10T12:00:00Z');

  it("opens when the last 10 minutes' failed share reaches max(3 × the 7-day share, the 7-day share + 20 points) over 10 settled calls, once", async () => {
    // A 10% week: the threshold is 30%.
    await calls(code, now, 3 * 24 * 60, 90, processed);
    await calls(code, now, 3 * 24 * 60, 10, failed);
    await calls(code, now, 5, 7, processed);
    await calls(code, now, 4, 2, failed);
    expect((await world.app.live.detector.detect(now)).opened).toEqual([]);
    // Three of ten failed (30%), but a call too old for the window does not count.
    await calls(code, now, 11, 5, failed);
    await calls(code, now, 3, 1, failed);
    const { opened } = await world.app.live.detector.detect(now);
    expect(opened).toEqual([
      {
        _id: expect.any(String),
        serviceCode: code,
        kind: 'failure-rate',
        openedAt: now.toISOString(),
        closedAt: null,
        figures: { windowMinutes: 10, settled: 10, failed: 3, failedShare: 0.3, baselineShare: 0.1, threshold: 0.3 },
        acknowledgedBy: null,
        acknowledgedAt: null,
        note: null,
      },
    ]);
    // Seen again a moment later, by this instance or another: nothing opens twice.
    const another = incidentDetector({ db: world.db, feed: world.app.live.feed, mail: localMailProvider(world.db), settings: DEFAULT_INCIDENT_SETTINGS, log: silentLog });
    const again = await Promise.all([world.app.live.detector.detect(at(now, 0.5)), another.detect(at(now, 0.5))]);
    expect(again.flatMap((pass) => pass.opened)).toEqual([]);
    await eventually(() => heardIncidents().some((incident) => incident._id === opened[0]._id));
    expect(heardIncidents().filter((incident) => incident._id === opened[0]._id)).toEqual([{ _id: opened[0]._id, serviceCode: code, kind: 'failure-rate', state: 'open', acknowledgedBy: null, acknowledgedAt: null, note: null }]);
  });

  it('closes once the last 10 minutes fall back under the threshold, whichever instance sees it first', async () => {
    const later = at(now, 20);
    await calls(code, later, 2, 7, processed);
    await calls(code, later, 2, 3, failed);
    expect((await world.app.live.detector.detect(later)).closed).toEqual([]);
    await calls(code, later, 1, 4, processed);
    const another = incidentDetector({ db: world.db, feed: world.app.live.feed, mail: localMailProvider(world.db), settings: DEFAULT_INCIDENT_SETTINGS, log: silentLog });
    const passes = await Promise.all([world.app.live.detector.detect(later), another.detect(later)]);
    const closed = passes.flatMap((pass) => pass.closed);
    expect(closed).toEqual([expect.objectContaining({ serviceCode: code, kind: 'failure-rate', closedAt: later.toISOString() })]);
    await eventually(() => heardIncidents().some((incident) => incident._id === closed[0]._id && incident.state === 'closed'));
  });

  it('takes the threshold from the settings: a code without history opens at 20% failed by default, at 50% when told', async () => {
    const fresh = (await createCatalogue(world, null)).code.name;
    const clock = new Date('2024-05-20T08:00:00Z');
    await calls(fresh, clock, 1, 8, processed);
    await calls(fresh, clock, 1, 2, failed);
    const strict = incidentDetector({ db: world.db, feed: world.app.live.feed, mail: localMailProvider(world.db), settings: { ...DEFAULT_INCIDENT_SETTINGS, failureMargin: 0.5 }, log: silentLog });
    expect((await strict.detect(clock)).opened).toEqual([]);
    expect((await world.app.live.detector.detect(clock)).opened).toEqual([expect.objectContaining({ serviceCode: fresh, figures: expect.objectContaining({ threshold: 0.2, failedShare: 0.2 }) })]);
    // No settled call in the window any more: nothing is failing, it closes.
    expect((await world.app.live.detector.detect(at(clock, 30))).closed).toEqual([expect.objectContaining({ serviceCode: fresh })]);
  });
});

describe('provider-silence', () => {
  const now = new Date('2024-06-01T12:00:00Z');

  it('opens when at least 5 payments requested over 5 minutes ago have had neither a callback nor a status answer, and closes under 5', async () => {
    const pending = await calls(code, now, 6, 6, {});
    await world.db.update(transactions).set({ paymentRef: transactions.id }).where(inArray(transactions.id, pending.map((row) => row.id)));
    await calls(code, now, 3, 4, { paymentRef: null });
    const [answered, polledAnswer, polledUnreachable] = pending;
    await world.db.insert(transactionEvents).values([
      { transactionId: answered.id, kind: 'payment_callback', actor: 'provider:external', detail: { status: 'PENDING' } },
      { transactionId: polledUnreachable.id, kind: 'payment_polled', actor: 'sweeper', detail: { status: null, error: 'Provider unreachable' } },
    ]);
    expect((await world.app.live.detector.detect(now)).opened.map((incident) => incident.kind)).toEqual(['provider-silence']);
    const [incident] = (await world.app.inject({ method: 'GET', url: '/v1/incidents?state=open', headers: adminHeaders })).json().results.docs;
    expect(incident).toMatchObject({ serviceCode: null, kind: 'provider-silence', figures: { silentPayments: 5, oldestRequestedAt: at(now, -6).toISOString(), silenceMinutes: 5 } });

    await world.db.insert(transactionEvents).values({ transactionId: polledAnswer.id, kind: 'payment_polled', actor: 'provider:external', detail: { status: 'PENDING' } });
    expect((await world.app.live.detector.detect(at(now, 1))).closed.map((closed) => closed.kind)).toEqual(['provider-silence']);
    await world.db.update(transactions).set({ isDeleted: true }).where(inArray(transactions.id, pending.map((row) => row.id)));
  });

  it('mails the admins and super-users who have an address when an incident opens, unless told not to', async () => {
    const subjects = async () => (await world.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ops@example.com'))).map((mail) => mail.subject);
    expect(await subjects()).toEqual(expect.arrayContaining(['Dialdesk incident: Payment provider silent', `Dialdesk incident: Payments failing on ${code}`]));
    const [silence] = await world.db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'Dialdesk incident: Payment provider silent'));
    expect(silence.body).toContain('silentPayments: 5');

    const before = (await subjects()).length;
    const quiet = incidentDetector({ db: world.db, feed: world.app.live.feed, mail: localMailProvider(world.db), settings: { ...DEFAULT_INCIDENT_SETTINGS, mail: false }, log: silentLog });
    const clock = new Date('2024-06-15T12:00:00Z');
    const other = (await createCatalogue(world, null)).code.name;
    await calls(other, clock, 1, 10, failed);
    expect((await quiet.detect(clock)).opened).toHaveLength(1);
    await quiet.detect(at(clock, 30));
    expect(await subjects()).toHaveLength(before);
  });
});

describe('sms-failure', () => {
  const now = new Date('2024-07-01T12:00:00Z');

  it('opens when at least 20% of 10 or more answered ticket SMS failed over 10 minutes, and closes under', async () => {
    await calls(code, now, 2, 7, { ...processed, messageStatuses: 'Delivered' });
    await calls(code, now, 2, 2, { ...processed, messageStatuses: 'Failed' });
    await calls(code, now, 2, 3, { ...processed, messageStatuses: 'Sending' });
    expect((await world.app.live.detector.detect(now)).opened).toEqual([]);
    await calls(code, now, 1, 1, { ...processed, messageStatuses: 'Sent' });
    const { opened } = await world.app.live.detector.detect(now);
    expect(opened).toEqual([expect.objectContaining({ serviceCode: null, kind: 'sms-failure', figures: { windowMinutes: 10, answered: 10, failed: 2, failedShare: 0.2, threshold: 0.2 } })]);
    await calls(code, at(now, 15), 1, 10, { ...processed, messageStatuses: 'Delivered' });
    expect((await world.app.live.detector.detect(at(now, 15))).closed).toEqual([expect.objectContaining({ kind: 'sms-failure' })]);
  });
});

describe('GET /v1/incidents', () => {
  const list = (query: string, headers: Record<string, string>) => world.app.inject({ method: 'GET', url: `/v1/incidents${query}`, headers });

  it('lists open ones first, then the newest, with their figures; scoped like the lists', async () => {
    const clock = new Date('2024-08-01T12:00:00Z');
    await calls(code, clock, 1, 10, failed);
    await world.app.live.detector.detect(clock);
    const all = (await list('', adminHeaders)).json().results;
    expect(all.docs[0]).toMatchObject({ serviceCode: code, kind: 'failure-rate', closedAt: null });
    expect(all.docs.slice(1).every((incident: { closedAt: string | null }) => incident.closedAt !== null)).toBe(true);
    expect(all.total).toBe(6);
    const closed = (await list('?state=closed&limit=2&page=2', adminHeaders)).json().results;
    expect(closed).toMatchObject({ page: 2, limit: 2, total: 5 });
    expect(closed.docs.map((incident: { kind: string }) => incident.kind)).toEqual(['provider-silence', 'failure-rate']);

    // The agent owning the code: its incidents only, never the service-wide ones.
    const own = (await list('', agentHeaders)).json().results;
    expect(own.docs.map((incident: { serviceCode: string }) => incident.serviceCode)).toEqual([code, code]);
    expect((await list('', otherAgentHeaders)).json().results.docs).toEqual([]);
    const afcon = (await world.headersFor('agent', { isAfcon: true })).headers;
    expect((await list('?state=open', afcon)).json().results.docs).toEqual([]);

    const count = (headers: Record<string, string>) => world.app.inject({ method: 'GET', url: '/v1/incidents/open-count', headers }).then((response) => response.json().results);
    expect(await count(adminHeaders)).toEqual({ open: 1 });
    expect(await count(agentHeaders)).toEqual({ open: 1 });
    expect(await count(otherAgentHeaders)).toEqual({ open: 0 });
  });

  it('refuses an unknown state with a field error, and callers without a token', async () => {
    const response = await list('?state=burning', adminHeaders);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'state', message: 'Invalid state' }]);
    expect((await list('', {})).statusCode).toBe(401);
  });
});

describe('the detector on its timer', () => {
  it('runs on every instance while the app is up', async () => {
    const timed = await buildTestWorld({ incidents: { everyMs: 30, silenceMinPayments: 1, silenceMinutes: 1 } });
    try {
      const { code: timedCode } = await createCatalogue(timed, null);
      const [row] = await insertTransactions(timed, timedCode.name, [{ createdAt: new Date(Date.now() - 2 * MINUTE) }]);
      await timed.db.update(transactions).set({ paymentRef: row.id }).where(eq(transactions.id, row.id));
      await eventually(async () => (await timed.db.select().from(incidents)).some((incident) => incident.kind === 'provider-silence'));
    } finally {
      await timed.close();
    }
  });
});
