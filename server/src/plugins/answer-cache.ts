import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BURST_PREFIX_DIGITS } from '../../../src/domain/vote-integrity';

/**
 * Campaign answers kept in memory for a moment: ranking pages, team results and the campaign they
 * belong to. A vote campaign's ranking is read far more than it changes (every open ranking screen
 * asks again on Refresh and every 10 s with 'Live'), and SPEC shows it with a Refresh button, not
 * as a live feed: a ranking up to `ttlMs` old (RANKING_CACHE_MS, default 1 s) is what a person would
 * see anyway a moment after loading it. A vote this process counts makes its campaign's answers
 * stale (`voteCounted`, called by the payment settlement) once they are `voteRefreshMs` old (a
 * quarter of `ttlMs` unless given): the next reader is still answered from memory and starts one
 * refresh, so a vote shows within a quarter second and a load or two; votes counted by another
 * process show within `ttlMs`. Dropping the answers instead would send every read of a vote surge to
 * the database, where a ranking at a million votes takes a tenth of a second or more; bounded
 * staleness keeps reads in memory. Making them stale at once would make every read of a surge start
 * a load (a popular 300 kB ranking page is read many times a second); the floor holds it to a few
 * loads a second.
 *
 * Answers are keyed by campaign plus the rest of the question (round, offset, limit). Concurrent
 * misses of one key share one load (single flight), so a burst after expiry asks PostgreSQL once.
 * An answer that expired less than `ttlMs` ago is still served while one load refreshes it in the
 * background (stale while revalidate): no reader waits for PostgreSQL on a page that is being read,
 * which would otherwise set the cached pages' p99, and none gets an answer older than 2 × `ttlMs`
 * plus that one load. A load that began before a vote was counted is kept, as stale once `voteRefreshMs` old.
 * The cache is bounded by entries and by characters held, least recently used out first, so memory
 * stays flat however many pages are asked for.
 *
 * A ranking page's anomaly column (each voter's peak votes a minute and flags) is kept apart, per
 * voter, for `figuresTtlMs` (ten times `ttlMs` unless given): a top voter's figures read every vote
 * it ever cast (68,000 votes for a page's 50 voters at a million votes, 0.7 s of PostgreSQL), yet they
 * change only with that number's own votes, and `burst` with the first votes of numbers of its prefix.
 * So a vote this process settles (`voterChanged`, counted or held) drops the figures of its number's
 * prefix alone, and a page refreshed after a vote reads the figures again only for those; figures of
 * numbers whose votes another process settled show within `figuresTtlMs`.
 */

export interface AnswerCacheOptions {
  /** How long an answer is served from memory; 0 turns the cache off (every read loads). */
  ttlMs: number;
  /** How old an answer must be before a counted vote makes it stale (at most `ttlMs`; default a quarter of it). */
  voteRefreshMs?: number;
  /** At most this many answers… */
  maxEntries?: number;
  /** …holding at most this many characters (or bytes) of JSON between them (a ranking page is ~300 kB). */
  maxChars?: number;
  /** How long a voter's anomaly figures are kept (default ten times `ttlMs`). */
  figuresTtlMs?: number;
  /** At most this many voters' figures. */
  maxFigures?: number;
  /** The clock, for tests. */
  now?: () => number;
}

export interface AnswerCache {
  /** `load()`'s answer for this campaign and question, from memory while fresh. */
  answer<T>(campaignKey: string, question: string, load: () => Promise<T>): Promise<T>;
  /** A vote of the campaign was counted: its answers are stale now (served once more while one refresh runs). */
  voteCounted(campaignKey: string): void;
  /**
   * Each voter's figures in a round, from memory where kept and fresh; `load` is asked once for the
   * rest (the numbers it leaves out have none, and are not kept).
   */
  voterFigures<T>(campaignKey: string, round: string, phoneNumbers: string[], load: (phoneNumbers: string[]) => Promise<Map<string, T>>): Promise<Map<string, T>>;
  /** A vote of this number was settled (counted or held): the figures of its prefix's numbers are dropped. */
  voterChanged(campaignKey: string, phoneNumber: string): void;
  /** Forgets every answer about the campaign, and any load of one in flight. */
  dropCampaign(campaignKey: string): void;
  clear(): void;
  /** Answers held now. */
  readonly size: number;
}

/** The default of RANKING_CACHE_MS. */
export const DEFAULT_RANKING_CACHE_MS = 1000;

interface Entry {
  campaignKey: string;
  value: unknown;
  chars: number;
  /** When its load began: its age counts from before the read. */
  loadedAt: number;
  expiresAt: number;
}

/** Roughly how much memory an answer holds: the length of its bytes or text, or of its text fields. */
function charsOf(value: unknown): number {
  if (typeof value === 'string' || Buffer.isBuffer(value)) return value.length;
  if (!value || typeof value !== 'object') return 8;
  let chars = 64;
  for (const field of Object.values(value)) chars += typeof field === 'string' ? field.length : 16;
  return chars;
}

export function answerCache({ ttlMs, voteRefreshMs = ttlMs / 4, maxEntries = 500, maxChars = 32 * 1024 * 1024, figuresTtlMs = ttlMs * 10, maxFigures = 20_000, now = Date.now }: AnswerCacheOptions): AnswerCache {
  const staleAfterVote = Math.min(voteRefreshMs, ttlMs);
  /** Voters' figures in groups by campaign and number prefix ('campaign\u0000prefix'), each by 'round\u0000phone': a vote drops its group. */
  const figureGroups = new Map<string, Map<string, { value: unknown; expiresAt: number }>>();
  let figureCount = 0;
  /**
   * Bumped per group by voterChanged while figures are loading (with `drops` for a whole campaign): a
   * load that began before is answered, not kept. Emptied whenever no load is running, so it stays small.
   */
  const groupChanges = new Map<string, number>();
  let figureLoads = 0;
  const groupOf = (campaignKey: string, phoneNumber: string) => `${campaignKey}\u0000${phoneNumber.slice(0, BURST_PREFIX_DIGITS)}`;
  const dropGroup = (group: string) => {
    figureCount -= figureGroups.get(group)?.size ?? 0;
    figureGroups.delete(group);
    if (figureLoads > 0) bump(groupChanges, group);
  };

  /** In least recently used order: a hit moves its entry to the end. */
  const entries = new Map<string, Entry>();
  const loading = new Map<string, { campaignKey: string; promise: Promise<unknown> }>();
  /** Bumped per campaign by voteCounted: a load that started before a vote was counted is kept as stale. */
  const votes = new Map<string, number>();
  /** Bumped per campaign by dropCampaign: a load that started before is not kept at all. */
  const drops = new Map<string, number>();
  const bump = (counter: Map<string, number>, campaignKey: string) => counter.set(campaignKey, (counter.get(campaignKey) ?? 0) + 1);
  let chars = 0;

  const forget = (key: string, entry: Entry) => {
    entries.delete(key);
    chars -= entry.chars;
  };

  function keep(key: string, entry: Entry) {
    const old = entries.get(key);
    if (old) forget(key, old);
    entries.set(key, entry);
    chars += entry.chars;
    for (const [oldest, evicted] of entries) {
      if (entries.size <= maxEntries && chars <= maxChars) break;
      forget(oldest, evicted);
    }
  }

  function voteCounted(campaignKey: string) {
    bump(votes, campaignKey);
    for (const entry of entries.values()) {
      if (entry.campaignKey === campaignKey) entry.expiresAt = Math.min(entry.expiresAt, entry.loadedAt + staleAfterVote);
    }
  }

  function dropCampaign(campaignKey: string) {
    bump(drops, campaignKey);
    for (const group of figureGroups.keys()) if (group.startsWith(`${campaignKey}\u0000`)) dropGroup(group);
    for (const [key, entry] of entries) if (entry.campaignKey === campaignKey) forget(key, entry);
    // Later readers start a fresh load; those already waiting get the one they joined.
    for (const [key, flight] of loading) if (flight.campaignKey === campaignKey) loading.delete(key);
  }

  /** Loads an answer once for every reader of `key`, and keeps it (as stale already when a vote was counted meanwhile). */
  function startLoad<T>(key: string, campaignKey: string, load: () => Promise<T>): Promise<T> {
    const startedAt = now();
    const [voted, dropped] = [votes.get(campaignKey) ?? 0, drops.get(campaignKey) ?? 0];
    const promise = load().then(
      (value) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        // Dropped meanwhile: not kept. A vote counted meanwhile: kept, but as if that vote came after it.
        if ((drops.get(campaignKey) ?? 0) === dropped) {
          const fresh = (votes.get(campaignKey) ?? 0) === voted;
          keep(key, { campaignKey, value, chars: charsOf(value), loadedAt: startedAt, expiresAt: startedAt + (fresh ? ttlMs : staleAfterVote) });
        }
        return value;
      },
      (error: unknown) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        // A failed refresh does not leave the stale answer to be served again: the next reader loads.
        const stale = entries.get(key);
        if (stale) forget(key, stale);
        throw error;
      },
    );
    loading.set(key, { campaignKey, promise });
    return promise;
  }

  return {
    answer<T>(campaignKey: string, question: string, load: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0) return load();
      const key = `${campaignKey}\u0000${question}`;
      const found = entries.get(key);
      const at = now();
      if (found && found.expiresAt > at) {
        entries.delete(key);
        entries.set(key, found);
        return Promise.resolve(found.value as T);
      }
      const inFlight = loading.get(key);
      if (found && found.expiresAt + ttlMs > at) {
        // Stale but recent: answer it now and refresh it once, in the background.
        if (!inFlight) startLoad(key, campaignKey, load).catch(() => undefined);
        return Promise.resolve(found.value as T);
      }
      if (found) forget(key, found);
      if (inFlight) return inFlight.promise as Promise<T>;
      return startLoad(key, campaignKey, load);
    },

    voteCounted,
    dropCampaign,

    async voterFigures<T>(campaignKey: string, round: string, phoneNumbers: string[], load: (phoneNumbers: string[]) => Promise<Map<string, T>>) {
      if (figuresTtlMs <= 0) return load(phoneNumbers);
      const at = now();
      const found = new Map<string, T>();
      const missing: string[] = [];
      for (const phone of phoneNumbers) {
        const entry = figureGroups.get(groupOf(campaignKey, phone))?.get(`${round}\u0000${phone}`);
        if (entry && entry.expiresAt > at) found.set(phone, entry.value as T);
        else missing.push(phone);
      }
      if (missing.length === 0) return found;
      const stamp = (phone: string) => `${drops.get(campaignKey) ?? 0}/${groupChanges.get(groupOf(campaignKey, phone)) ?? 0}`;
      const before = new Map(missing.map((phone) => [phone, stamp(phone)]));
      figureLoads += 1;
      let loaded: Map<string, T>;
      try {
        loaded = await load(missing);
      } finally {
        figureLoads -= 1;
      }
      for (const [phone, value] of loaded) {
        found.set(phone, value);
        const group = groupOf(campaignKey, phone);
        // A vote of its prefix was settled (or the campaign changed) while loading: answered, not kept.
        if (stamp(phone) !== before.get(phone)) continue;
        const kept = figureGroups.get(group) ?? new Map<string, { value: unknown; expiresAt: number }>();
        figureGroups.set(group, kept);
        const key = `${round}\u0000${phone}`;
        if (!kept.has(key)) figureCount += 1;
        kept.set(key, { value, expiresAt: at + figuresTtlMs });
      }
      if (figureLoads === 0) groupChanges.clear();
      // Bounded: the groups kept longest go first.
      for (const group of figureGroups.keys()) {
        if (figureCount <= maxFigures) break;
        dropGroup(group);
      }
      return found;
    },

    voterChanged(campaignKey: string, phoneNumber: string) {
      dropGroup(groupOf(campaignKey, phoneNumber));
    },

    clear() {
      for (const campaignKey of new Set([...entries.values(), ...loading.values()].map((e) => e.campaignKey))) dropCampaign(campaignKey);
      figureGroups.clear();
      figureCount = 0;
    },

    get size() {
      return entries.size;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Campaign rankings and results kept for a moment (below). */
    answerCache: AnswerCache;
  }
}

/** Hands the campaign routes and the payment settlement one answer cache per app; emptied on close. */
export default fp(
  async function answerCachePlugin(app: FastifyInstance, options: { cache: AnswerCache }) {
    app.decorate('answerCache', options.cache);
    app.addHook('onClose', async () => options.cache.clear());
  },
  { name: 'answer-cache' },
);
