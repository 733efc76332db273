import { CATEGORY_LEVELS, type CategoryLevel } from '../../../src/domain/category-levels';
import { rememberWithin } from '../../../src/domain/bounded-memory';
import { DEFAULT_VOTE_PRICE, roundIsOpen } from '../../../src/domain/campaign-rounds';
import type { ServiceRow, UssdRepository } from '../repositories/ussd-repository';
import type { UssdService } from './ussd-menu';

/** A dialled code's menu data, with what placing its call needs. */
export interface LoadedService {
  service: UssdService;
  serviceCode: string;
  categoryId: string | null;
  /** The category level a vote is priced at, when the campaign's code has a priced category. */
  voteLevel: CategoryLevel | null;
  campaignKey: string | null;
}

/** Codes remembered at most; past this many (codes dialled at random) the cache starts again. */
const MENU_CACHE_CODES = 1_000;

/**
 * Each dialled code's catalogue row (its campaign, category, prices and active levels, or that it
 * is unknown), kept `ttlMs` (USSD_MENU_CACHE_MS; 0 keeps nothing). Every hop read it again: a third
 * of the statements of a sale (bench:ingest). `forget()` drops it all when the catalogue changes
 * through this API (the category, service-code and ticket routes call it); another instance's change
 * shows within `ttlMs`. A number's votes are never cached.
 */
export function ussdMenuCache(ttlMs: number) {
  // The read itself is kept, so hops arriving together while it runs (a server just started, an
  // entry just expired) share one statement instead of each asking.
  const entries = new Map<string, { row: Promise<ServiceRow | undefined>; until: number }>();
  return {
    get(code: string, load: () => Promise<ServiceRow | undefined>): Promise<ServiceRow | undefined> {
      if (ttlMs <= 0) return load();
      const now = Date.now();
      const hit = entries.get(code);
      if (hit && hit.until > now) return hit.row;
      const entry = { row: load(), until: now + ttlMs };
      rememberWithin(entries, MENU_CACHE_CODES, code, entry);
      // A failed read is not remembered: the next hop asks again.
      entry.row.catch(() => entries.get(code) === entry && entries.delete(code));
      return entry.row;
    },
    forget() {
      entries.clear();
    },
  };
}

export type UssdMenuCache = ReturnType<typeof ussdMenuCache>;

/**
 * The service behind a dialled code (DESIGN §6): a campaign's (its rounds, teams, vote price and
 * this number's votes per round) or a ticket category's levels that have a price and an active
 * content. Undefined for an unknown code. A vote costs the cheapest priced level of the category of
 * the campaign's code when that code is registered, otherwise the demo votes' price.
 */
export function ussdCatalogue(repo: UssdRepository, cache: UssdMenuCache) {
  /**
   * `firstHop`: the session's opening hop. A later hop reads when the session started, so that the
   * rounds offered (those open then) and the numbers the voter answered keep their meaning.
   */
  return async function loadService(code: string, phoneNumber: string, sessionId: string, firstHop: boolean): Promise<LoadedService | undefined> {
    const row = await cache.get(code, () => repo.serviceRow(code));
    const campaign = row?.campaign;
    const found = row?.category;
    const price = (level: CategoryLevel) => Number(found?.prices[`price_${level.toLowerCase()}`] ?? 0);
    const pricedLevels = found ? CATEGORY_LEVELS.filter((level) => price(level) > 0) : [];

    if (campaign) {
      const cheapest = pricedLevels.reduce<CategoryLevel | null>((low, level) => (low && price(low) <= price(level) ? low : level), null);
      const now = new Date();
      // One round is always offered alone: when the session began matters only with several.
      const startedAt = firstHop || campaign.rounds.length < 2 ? now : ((await repo.sessionStartedAt(sessionId)) ?? now);
      const rounds = campaign.rounds.filter((round) => roundIsOpen(round, startedAt)).map((round) => ({ ...round, open: roundIsOpen(round, now) }));
      const priced = campaign.votePrice === null && cheapest;
      return {
        service: {
          kind: 'campaign',
          name: campaign.name,
          closed: campaign.status !== 'live',
          rounds,
          teams: campaign.teams,
          price: campaign.votePrice ?? (cheapest ? price(cheapest) : DEFAULT_VOTE_PRICE),
          cap: campaign.cap,
          votesCast: campaign.cap === null || campaign.status !== 'live' ? {} : await repo.votesByRound(campaign.key, phoneNumber, sessionId),
        },
        serviceCode: code,
        categoryId: cheapest ? found!.id : null,
        voteLevel: priced ? cheapest : null,
        campaignKey: campaign.key,
      };
    }

    if (!found) return undefined;
    const active = new Set(found.active);
    return {
      service: { kind: 'catalogue', categoryName: found.name, levels: pricedLevels.filter((level) => active.has(level)).map((level) => ({ level, price: price(level) })) },
      serviceCode: code,
      categoryId: found.id,
      voteLevel: null,
      campaignKey: null,
    };
  };
}
