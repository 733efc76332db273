import { act, fireEvent } from '@testing-library/react';
import { apiUrl } from '../api/api-url';
import { REQUIRED_PRICE_LEVELS } from '../domain/category-levels';
import type { Category, Content, SmsRecord } from '../domain/entities';
import { sessionFor, uniqueName } from './render-app';
import { TEST_ADMIN } from './test-admin';

/** Catalogue data made over the real API as the test admin, for screens that need it in place. */
async function postAsAdmin<T>(path: string, body: unknown): Promise<T> {
  const { accessToken } = await sessionFor(TEST_ADMIN);
  const response = await fetch(apiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { results: T; message: string };
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${json.message}`);
  return json.results;
}

export function createCategoryViaApi(agentId: string, name = uniqueName('Cat')): Promise<Category> {
  const prices = Object.fromEntries(REQUIRED_PRICE_LEVELS.map((level) => [level, 1000]));
  return postAsAdmin<Category>('/v1/category', { name, user: agentId, ...prices });
}

/** A service code of this name under a category (its id). */
export function createServiceCodeNamedViaApi(name: string, category: string): Promise<{ _id: string; name: string }> {
  return postAsAdmin<{ _id: string; name: string }>('/v1/short-code', { name, category });
}

export function createContentViaApi(body: { category: string; categoryLevel: string; message: string; active?: boolean }): Promise<Content> {
  return postAsAdmin<Content>('/v1/ticket', body);
}

export function sendSmsViaApi(message: string): Promise<SmsRecord> {
  return postAsAdmin<SmsRecord>('/v1/sms', { categoryLevel: 'vip', phoneNumber: '256750461234', message });
}

const digits = (n: number) => Math.floor(Math.random() * n);

/** A fresh USSD-shaped code, e.g. *512*8437*12#. */
export function uniqueServiceCode(): string {
  return `*${100 + digits(900)}*${digits(10_000)}*${digits(10_000)}#`;
}

/** Sets a field in one change event inside act (typing key by key is slow in jsdom for long forms). */
export async function fillField(input: HTMLElement, value: string): Promise<void> {
  await act(async () => {
    fireEvent.change(input, { target: { value } });
  });
}

/** A field's accessible label, with or without MUI's required asterisk. */
export function fieldLabel(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`);
}
