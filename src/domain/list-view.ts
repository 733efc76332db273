import { isDay } from './calendar-day';
import { SERVICE_CODE_PATTERN } from './schemas/catalogue';
import { isCleanText } from './schemas/text';
import { isInstant } from './schemas/transactions';
import { isUuid } from './uuid';

/**
 * A list's view in the URL query: which service code, day, page, status or phone number
 * a person is looking at, so that a reload keeps it, a copied link opens it for a colleague and
 * Back and Forward walk through views. The query is typed by anyone: every value is checked here,
 * and anything that is not one falls back to the list's default (never a crash, never garbage
 * sent to the API).
 */
export interface ViewFilter<T> {
  /** The value when the URL does not say, or says something that is not one. Left out of the URL. */
  initial: T;
  /** The value the query's text stands for; undefined when the text is not one. */
  parse: (text: string) => T | undefined;
  format: (value: T) => string;
  /**
   * The default is the signed-in person's own (their stored service code): a colleague's would
   * differ, so the value is written even at the default once the view is changed.
   */
  personalDefault?: boolean;
  /** The person cannot change it (an agent's own code): never read from the URL, never written. */
  fixed?: boolean;
}

/** One rule per filter of a list. */
export type ViewFilters<F> = { [K in keyof F]: ViewFilter<F[K]> };

/** The highest page a URL may ask for: far beyond any list's end, well inside what the API takes. */
export const MAX_PAGE = 100_000;

/** A page from the URL: a positive integer in plain digits, at most MAX_PAGE. */
export function parsePage(text: string | null): number | undefined {
  if (text === null || !/^[1-9]\d{0,5}$/.test(text)) return undefined;
  const page = Number(text);
  return page <= MAX_PAGE ? page : undefined;
}

/** The query key of a filter, under the list's prefix when a screen shows two lists. */
export const viewKey = (name: string, prefix = '') => (prefix ? `${prefix}.${name}` : name);

const PAGE_KEY = 'page';

const text = (initial: string, valid: (value: string) => boolean): ViewFilter<string> => ({
  initial,
  parse: (value) => (valid(value) ? value : undefined),
  format: (value) => value,
});

/** A day `YYYY-MM-DD` that exists. */
export const dayFilter = (initial: string) => text(initial, isDay);

/**
 * A service code such as `*217*4#`, or '' for every code the person may read. The manager's
 * starting code is their stored one, hence personal.
 */
export const serviceCodeFilter = (initial: string) => ({ ...text(initial, (value) => value === '' || (value.length <= 50 && SERVICE_CODE_PATTERN.test(value))), personalDefault: true });

/** The digits of a phone number searched for ('' before a search); the API normalises them. */
export const phoneNumberFilter = (initial = '') => ({
  ...text(initial, (value) => /^\d{6,20}$/.test(value)),
  format: (value: string) => value.replace(/\D/g, ''),
});

/** Words typed into a filter (a user name, a record's id), at most `max` characters of clean text; '' for none. */
export const typedTextFilter = (max: number, initial = '') => text(initial, (value) => value.length <= max && isCleanText(value));

/** One of a list's fixed choices (a status, a kind). */
export function choiceFilter<T extends string>(choices: readonly T[], initial: T): ViewFilter<T> {
  return { initial, parse: (value) => choices.find((choice) => choice === value), format: (value) => value };
}

/** An instant with its offset (ISO 8601), or '' for none: a window's ends (an incident's calls). */
export const instantFilter = (initial = '') => text(initial, (value) => value === '' || (value.length <= 40 && isInstant(value)));

/** An entity's id, a UUID (a reconciliation statement), or '' for none chosen. */
export const idFilter = (initial = '') => text(initial, (value) => value === '' || isUuid(value));

/** A value the person cannot change: the URL neither sets nor shows it. */
export function fixedFilter<T>(value: T): ViewFilter<T> {
  return { initial: value, parse: () => undefined, format: () => '', fixed: true };
}

/** A list's filters and page as the URL query gives them, defaults where it says nothing valid. */
export function readView<F>(query: URLSearchParams, filters: ViewFilters<F>, prefix = ''): { filters: F; page: number } {
  const values = {} as F;
  for (const name of Object.keys(filters) as (keyof F & string)[]) {
    const filter = filters[name];
    const raw = filter.fixed ? null : query.get(viewKey(name, prefix));
    values[name] = (raw === null ? undefined : filter.parse(raw)) ?? filter.initial;
  }
  return { filters: values, page: parsePage(query.get(viewKey(PAGE_KEY, prefix))) ?? 1 };
}

/**
 * The query with the list's filters and page written in place of what it said of them; defaults
 * are left out so a plain link stays plain; other keys (another list's, another feature's) stay.
 */
export function writeView<F>(query: URLSearchParams, filters: ViewFilters<F>, view: { filters: NoInfer<F>; page: number }, prefix = ''): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const name of Object.keys(filters) as (keyof F & string)[]) {
    const filter = filters[name];
    const key = viewKey(name, prefix);
    next.delete(key);
    const value = view.filters[name];
    if (filter.fixed || (value === filter.initial && !filter.personalDefault)) continue;
    next.set(key, filter.format(value));
  }
  next.delete(viewKey(PAGE_KEY, prefix));
  if (view.page > 1) next.set(viewKey(PAGE_KEY, prefix), String(Math.min(Math.floor(view.page), MAX_PAGE)));
  return next;
}
