import { signCallback } from '../../server/src/ingestion/callback-signature';
import { apiUrl } from '../api/api-url';
import { REQUIRED_PRICE_LEVELS } from '../domain/category-levels';
import type { Transaction } from '../domain/entities';
import { createAgentViaApi, sessionFor, uniqueName, type TestAgent } from './render-app';
import { TEST_ADMIN } from './test-admin';

async function call<T>(path: string, init: { method?: string; body?: unknown; token?: string; form?: Record<string, string>; signed?: boolean }): Promise<{ status: number; json: T; text: string }> {
  const headers: Record<string, string> = init.token ? { Authorization: `Bearer ${init.token}` } : {};
  let body: string | undefined;
  if (init.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  // As the payment provider does: the body's HMAC with the secret the test API was started with.
  if (init.signed) headers['X-Callback-Signature'] = signCallback(body ?? '', process.env.DIALDESK_CALLBACK_SECRET ?? '');
  const response = await fetch(apiUrl(path), { method: init.method ?? 'POST', headers, body });
  const text = await response.text();
  let json = undefined as T;
  try {
    json = JSON.parse(text) as T;
  } catch {
    // USSD answers are plain text.
  }
  if (response.status >= 400) throw new Error(`${path} answered ${response.status}: ${text}`);
  return { status: response.status, json, text };
}

/** The test API's USSD callback, with the token global-setup started it with. */
const ussdCallback = () => `/v1/ussd/callback?token=${process.env.DIALDESK_USSD_TOKEN ?? ''}`;

export interface TestServiceCode {
  name: string;
  agent: TestAgent;
  /** ordinary costs 1,000 and vip 5,000, both with an active content (the menu offers only those); `ticketMessage` is vip's. */
  ticketMessage: string;
}

/** A fresh agent owning a category (every required level priced) and a service code, made as the admin. */
export async function createServiceCodeViaApi(): Promise<TestServiceCode> {
  const admin = await sessionFor(TEST_ADMIN);
  const agent = await createAgentViaApi('dialler');
  const prices = Object.fromEntries(REQUIRED_PRICE_LEVELS.map((level) => [level, 0]));
  const category = await call<{ results: { _id: string } }>('/v1/category', {
    token: admin.accessToken,
    body: { name: uniqueName('category'), user: agent.id, ...prices, ordinary: 1000, vip: 5000 },
  });
  const digits = `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-4);
  const name = `*${300 + Math.floor(Math.random() * 600)}*${digits}#`;
  await call('/v1/short-code', { token: admin.accessToken, body: { name, category: category.json.results._id } });
  const ticketMessage = `VIP ticket ${uniqueName('seat')}`;
  await call('/v1/ticket', { token: admin.accessToken, body: { category: category.json.results._id, categoryLevel: 'vip', message: ticketMessage, active: true } });
  await call('/v1/ticket', { token: admin.accessToken, body: { category: category.json.results._id, categoryLevel: 'ordinary', message: `Ordinary ticket ${uniqueName('seat')}`, active: true } });
  return { name, agent, ticketMessage };
}

export type Outcome = 'SUCCESSFUL' | 'FAILED' | 'PENDING';

/**
 * Makes calls the way the network does: dial the code, choose a level (1 ordinary, 2 vip), confirm,
 * then the payment provider's callback settles it (or not, for PENDING). Answers the calls in the order asked.
 */
export async function dialCalls(code: string, calls: { phoneNumber: string; choice?: '1' | '2'; outcome: Outcome }[]): Promise<(Transaction & { outcome: Outcome })[]> {
  for (const c of calls) {
    const sessionId = uniqueName('session');
    const form = { sessionId, serviceCode: code, phoneNumber: c.phoneNumber, networkCode: '64110' };
    await call(ussdCallback(), { form: { ...form, text: '' } });
    await call(ussdCallback(), { form: { ...form, text: c.choice ?? '1' } });
    await call(ussdCallback(), { form: { ...form, text: `${c.choice ?? '1'}*1` } });
  }
  const admin = await sessionFor(TEST_ADMIN);
  const made: Transaction[] = [];
  for (const phoneNumber of [...new Set(calls.map((c) => c.phoneNumber))]) {
    const found = await call<{ results: { docs: Transaction[] } }>('/v1/transactions/search?limit=100', { token: admin.accessToken, body: { phoneNumber } });
    made.push(...found.json.results.docs.filter((t) => t.name === code));
  }
  made.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  // Calls were made in order, so the oldest call is the first one asked for.
  const oldestFirst = [...made].reverse();
  for (const [i, c] of calls.entries()) {
    if (c.outcome !== 'PENDING') await settleCall(oldestFirst[i].paymentRef ?? '', c.outcome);
  }
  return oldestFirst.map((t, i) => ({ ...t, outcome: calls[i].outcome }));
}

/**
 * Votes cast the way a voter does: each walks the campaign's USSD menu with its answers ('1*2*1':
 * round 1, team 2, confirm), one hop per answer, then the payment provider's callback pays each
 * vote (or fails it, `outcome: 'FAILED'`), oldest first (a vote's flags are read as it settles).
 * Answers the votes made, oldest first.
 */
export async function castVotes(code: string, votes: { phoneNumber: string; answers: string; outcome?: Exclude<Outcome, 'PENDING'> }[]): Promise<Transaction[]> {
  for (const vote of votes) {
    const sessionId = uniqueName('vote');
    const form = { sessionId, serviceCode: code, phoneNumber: vote.phoneNumber, networkCode: '64110' };
    const steps = vote.answers.split('*');
    for (let hop = 0; hop <= steps.length; hop += 1) await call(ussdCallback(), { form: { ...form, text: steps.slice(0, hop).join('*') } });
  }
  const admin = await sessionFor(TEST_ADMIN);
  const made: Transaction[] = [];
  for (const phoneNumber of [...new Set(votes.map((v) => v.phoneNumber))]) {
    const found = await call<{ results: { docs: Transaction[] } }>('/v1/transactions/search?limit=100', { token: admin.accessToken, body: { phoneNumber } });
    made.push(...found.json.results.docs.filter((t) => t.name === code));
  }
  made.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  const failing = new Set(votes.filter((vote) => vote.outcome === 'FAILED').map((vote) => vote.phoneNumber));
  for (const vote of made) await settleCall(vote.paymentRef ?? '', failing.has(vote.phoneNumber) ? 'FAILED' : 'SUCCESSFUL');
  return made;
}

/** The payment provider's signed callback for a pending call's payment. */
export async function settleCall(paymentRef: string, outcome: Exclude<Outcome, 'PENDING'>): Promise<void> {
  await call('/v1/payments/callback', { body: { reference: paymentRef, status: outcome }, signed: true });
}

/** A Ugandan number no other test uses. */
export function uniquePhoneNumber(): string {
  return `2567${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}
