import crypto from 'node:crypto';
import { REQUIRED_PRICE_LEVELS } from '../../src/domain/category-levels';
import type { Category } from '../../src/domain/entities';
import type { TestWorld } from './helpers';

export type Headers = Record<string, string>;

export const uniqueName = (prefix: string) => `${prefix} ${crypto.randomUUID().slice(0, 8)}`;

/** A valid category body: every required price set, owned by the agent. */
export function categoryBody(agentId: string, overrides: Record<string, unknown> = {}) {
  const prices = Object.fromEntries(REQUIRED_PRICE_LEVELS.map((level, i) => [level, 1000 * (i + 1)]));
  return { name: uniqueName('Category'), description: 'Weekend games', user: agentId, ...prices, ...overrides };
}

export async function createCategory(world: TestWorld, headers: Headers, agentId: string, overrides: Record<string, unknown> = {}) {
  const response = await world.app.inject({ method: 'POST', url: '/v1/category', headers, payload: categoryBody(agentId, overrides) });
  if (response.statusCode !== 201) throw new Error(`category not created: ${response.body}`);
  return response.json().results as Category;
}

/** A random service code of USSD shape, unique enough for one test file. */
export const randomCode = () => `*${100 + crypto.randomInt(900)}*${crypto.randomInt(10_000)}#`;
