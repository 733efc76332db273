import type { FastifyBaseLogger } from 'fastify';
import { LIVE_HEARTBEAT_MS, type LiveIncident, type LiveTransaction } from '../../../src/domain/live';
import type { LiveRefund } from '../../../src/domain/refunds';
import { SESSION_CHECK_MAX_MS, type SessionHolder } from '../auth/session-check';
import type { ChangeFeed, FeedDelivery } from './change-feed';

/** Where a live client's events go: an HTTP response, or any stream in tests. */
export interface LiveSink {
  write(chunk: string | Buffer): unknown;
  /** Bytes written but not yet taken by the client (with the socket's own buffer, for a response). */
  readonly writableLength: number;
  end(): unknown;
  destroy(): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** The service codes a client hears of; all of them, and the service-wide incidents, when undefined (managers). */
export interface LiveScope {
  codes?: ReadonlySet<string>;
}

/** The signed-in session a stream was opened in, and who held it then. */
export interface LiveSession {
  id: string;
  holder: SessionHolder;
}

export interface LiveClient {
  sink: LiveSink;
  scope: LiveScope;
  /**
   * The codes the client's screen shows (`GET /v1/live?serviceCode=`): its calls are narrowed to
   * these, within its scope; all of its scope when undefined. Incidents are not narrowed (the top
   * bar counts them whatever the screen).
   */
  follow?: ReadonlySet<string>;
  /** When its access token expires (ms since the epoch): the stream ends then, and the client connects again with a fresh one. */
  expiresAt?: number;
  /**
   * Checked again every `sessionCheckMs`, as a request's is: the stream ends once the session has
   * ended (logout, a new password, a reset) or its holder's role or Afcon switch has changed (the
   * client connects again, and is scoped as it is now, or refused).
   */
  session?: LiveSession;
  /** Reads the scope again for the session's holder as it is now (an agent's codes may change while it listens). */
  refreshScope?: (holder?: SessionHolder) => Promise<LiveScope>;
}

/** Why a stream was refused: its session, its user or this process already holds as many as allowed. */
export type LiveStreamsFull = 'session' | 'user' | 'process';

export interface LiveStreamOptions {
  feed: ChangeFeed;
  /** The current state of changed calls, read once per batch for every client. */
  readCalls: (ids: string[]) => Promise<LiveTransaction[]>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** A comment line at least this often. */
  heartbeatMs?: number;
  /** At most one write to each client this often: changes in between are coalesced. */
  flushMs?: number;
  /**
   * Writes a second this process spends on all its clients together: with more clients than fit
   * `flushMs`, each is written to less often (500 clients at 500 a second: once a second each).
   */
  writesPerSecond?: number;
  /** A client with more than this waiting to be taken is dropped (it reconnects and reads again). */
  maxBufferedBytes?: number;
  /** How often a client's scope is read again. */
  scopeRefreshMs?: number;
  /** The holders of live sessions, read now (ended sessions absent): SessionCheck.holders. */
  readSessions?: (sessionIds: readonly string[]) => Promise<Map<string, SessionHolder>>;
  /** How often the clients' sessions are read again (all of them in one read): the per-request check's time. */
  sessionCheckMs?: number;
  /** Streams one session may hold open (LIVE_STREAMS_PER_SESSION). */
  maxPerSession?: number;
  /** Streams one user may hold open over all its sessions (LIVE_STREAMS_PER_USER). */
  maxPerUser?: number;
  /** Streams this process holds open at most (LIVE_STREAMS_MAX): each is a file descriptor the callbacks also need. */
  maxStreams?: number;
  now?: () => number;
}

interface Connection extends LiveClient {
  refreshedAt: number;
  /** Names what the client hears, so clients that hear the same share one encoded text. */
  hearsKey: string;
}

const codesKey = (codes: ReadonlySet<string> | undefined) => (codes ? [...codes].sort().join('\u0000') : '*');
const hearsKeyOf = ({ scope, follow }: LiveClient) => `${codesKey(scope.codes)}\u0001${codesKey(follow)}`;

interface Pending {
  calls: Set<string>;
  incidents: LiveIncident[];
  refunds: LiveRefund[];
  gap: boolean;
}

const frame = (id: string, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const DEFAULT_LIVE_FLUSH_MS = 250;
/**
 * Each write to a console is a system call that wakes its reader; at 500 consoles every 250 ms they
 * cost +15% server CPU a sale, at once a second +6% (bench:ingest --live-clients 500, RESULTS.md).
 */
export const DEFAULT_LIVE_WRITES_PER_SECOND = 500;
export const DEFAULT_LIVE_MAX_BUFFERED_BYTES = 256 * 1024;
/** A person's tabs of one sign-in share its session; a few of them follow at once. */
export const DEFAULT_LIVE_STREAMS_PER_SESSION = 5;
/**
 * A few sign-ins' worth, and too few to starve the writes: one user's streams lengthen the time
 * between two writes to every other console by at most 20 ÷ `writesPerSecond` (40 ms at the defaults).
 */
export const DEFAULT_LIVE_STREAMS_PER_USER = 20;
/** Well under a process's file descriptors (ulimit -n), which the USSD and payment callbacks need too. */
export const DEFAULT_LIVE_STREAMS_MAX = 2000;

/**
 * The clients of `GET /v1/live` on this process and what they are sent (DESIGN §7). Changes from
 * the feed are coalesced: at most one write per client every `flushMs` (longer with more clients than
 * `writesPerSecond` allows), each call in its latest
 * state (read once per batch, whoever listens), each client only what its scope covers. A client
 * that does not take what it is sent is dropped rather than buffered without bound.
 */
export function liveStream(options: LiveStreamOptions) {
  const { feed, readCalls, log } = options;
  const flushMs = options.flushMs ?? DEFAULT_LIVE_FLUSH_MS;
  const writesPerSecond = options.writesPerSecond ?? DEFAULT_LIVE_WRITES_PER_SECOND;
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_LIVE_MAX_BUFFERED_BYTES;
  const scopeRefreshMs = options.scopeRefreshMs ?? 60_000;
  const maxPerSession = options.maxPerSession ?? DEFAULT_LIVE_STREAMS_PER_SESSION;
  const maxPerUser = options.maxPerUser ?? DEFAULT_LIVE_STREAMS_PER_USER;
  const maxStreams = options.maxStreams ?? DEFAULT_LIVE_STREAMS_MAX;
  const now = options.now ?? Date.now;
  const connections = new Set<Connection>();
  /** Open streams by session id and by user id. */
  const perSession = new Map<string, number>();
  const perUser = new Map<string, number>();
  const count = (counts: Map<string, number>, key: string, by: number) => {
    const next = (counts.get(key) ?? 0) + by;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  };
  let pending: Pending = { calls: new Set(), incidents: [], refunds: [], gap: false };
  let timer: NodeJS.Timeout | undefined;
  let flushing = false;
  let lastFlush = 0;
  let batch = 0;

  // The feed is heard only while someone listens: with no client, a change costs this process nothing.
  let unsubscribe: (() => void) | undefined;
  const remove = (connection: Connection) => {
    if (!connections.delete(connection)) return;
    if (connection.session) {
      count(perSession, connection.session.id, -1);
      count(perUser, connection.session.holder.userId, -1);
    }
    if (connections.size === 0) {
      unsubscribe?.();
      unsubscribe = undefined;
    }
  };

  /** Writes unless the client is too far behind; then it is dropped. */
  function send(connection: Connection, text: string | Buffer) {
    if (!connections.has(connection)) return;
    if (connection.sink.writableLength > maxBuffered) return drop(connection);
    connection.sink.write(text);
    if (connection.sink.writableLength > maxBuffered) drop(connection);
  }

  /** Ends a stream the client should open again (its token or session changed). */
  function end(connection: Connection) {
    remove(connection);
    connection.sink.end();
  }

  function drop(connection: Connection) {
    remove(connection);
    log.info({ buffered: connection.sink.writableLength }, 'live client too slow to keep up; dropped');
    connection.sink.destroy();
  }

  const hasWaiting = () => pending.calls.size > 0 || pending.incidents.length > 0 || pending.refunds.length > 0 || pending.gap;

  /** The time between two flushes: `flushMs`, or longer when that many clients would take more writes than the budget. */
  const interval = () => Math.max(flushMs, (connections.size * 1000) / writesPerSecond);

  function schedule() {
    if (timer || flushing || !hasWaiting()) return;
    timer = setTimeout(() => void flush(), Math.max(0, lastFlush + interval() - now()));
  }

  async function flush() {
    timer = undefined;
    flushing = true;
    lastFlush = now();
    const { calls, incidents, refunds, gap } = pending;
    pending = { calls: new Set(), incidents: [], refunds: [], gap: false };
    try {
      if (connections.size > 0) await deliver([...calls], incidents, gap, refunds);
    } catch (error) {
      log.error({ err: error }, 'live changes could not be read');
      // The clients missed these changes: they read again.
      pending.gap = true;
    } finally {
      flushing = false;
      schedule();
    }
  }

  async function deliver(ids: string[], incidents: LiveIncident[], gap: boolean, refunds: LiveRefund[] = []) {
    const rows = ids.length > 0 ? await readCalls(ids) : [];
    batch += 1;
    let n = 0;
    const events = [
      ...incidents.map((incident) => ({ kind: 'incident', serviceCode: incident.serviceCode, text: frame(`${batch}.${n++}`, 'incident', incident) })),
      ...rows.map((row) => ({ kind: 'transaction', serviceCode: row.name as string | null, text: frame(`${batch}.${n++}`, 'transaction', row) })),
      ...refunds.map(({ serviceCode, ...refund }) => ({ kind: 'refund', serviceCode, text: frame(`${batch}.${n++}`, 'refund', refund) })),
    ];
    const resync = gap ? frame(`${batch}.${n++}`, 'resync', {}) : '';
    // Clients that hear the same get the same bytes, built and encoded once: encoding the text again
    // for each of 500 consoles cost more than writing it (bench:ingest --live-clients 500).
    const texts = new Map<string, Buffer>();
    for (const connection of [...connections]) {
      let bytes = texts.get(connection.hearsKey);
      if (bytes === undefined) {
        const { scope, follow } = connection;
        const heard = events.filter(({ kind, serviceCode }) => {
          if (scope.codes && (serviceCode === null || !scope.codes.has(serviceCode))) return false;
          return kind === 'incident' || kind === 'refund' || !follow || (serviceCode !== null && follow.has(serviceCode));
        });
        bytes = Buffer.from(resync + heard.map((event) => event.text).join(''));
        texts.set(connection.hearsKey, bytes);
      }
      if (bytes.length > 0) send(connection, bytes);
    }
  }

  const hear = (delivery: FeedDelivery) => {
    if (delivery.kind === 'gap') pending.gap = true;
    else {
      for (const id of delivery.calls) pending.calls.add(id);
      pending.incidents.push(...delivery.incidents);
      pending.refunds.push(...(delivery.refunds ?? []));
    }
    schedule();
  };

  const heartbeat = setInterval(() => {
    const at = now();
    for (const connection of [...connections]) {
      if (connection.expiresAt !== undefined && at >= connection.expiresAt) {
        end(connection);
        continue;
      }
      send(connection, ': ping\n\n');
      if (connection.refreshScope && at - connection.refreshedAt >= scopeRefreshMs) {
        connection.refreshedAt = at;
        connection.refreshScope(connection.session?.holder).then(
          (scope) => {
            connection.scope = scope;
            connection.hearsKey = hearsKeyOf(connection);
          },
          (error: unknown) => log.warn({ err: error }, 'live client scope could not be read again'),
        );
      }
    }
  }, options.heartbeatMs ?? LIVE_HEARTBEAT_MS);
  heartbeat.unref();

  // Every client's session, read again in one statement (not per event: the push stays as cheap
  // however many clients listen), so a stream outlives its session no longer than a request would.
  let checking: Promise<void> | undefined;
  let checkAgain = false;
  async function checkSessions() {
    const { readSessions } = options;
    const watched = [...connections].filter((connection) => connection.session);
    if (!readSessions || watched.length === 0) return;
    const holders = await readSessions([...new Set(watched.map((connection) => connection.session!.id))]);
    for (const connection of watched) {
      if (!connections.has(connection)) continue;
      const then = connection.session!.holder;
      const current = holders.get(connection.session!.id);
      if (!current || current.userId !== then.userId || current.role !== then.role || current.isAfcon !== then.isAfcon) end(connection);
      else connection.session!.holder = current;
    }
  }
  /** Checks the sessions now, or once more after the check under way. */
  const recheck = () => {
    if (checking) {
      checkAgain = true;
      return checking;
    }
    checking = checkSessions()
      .catch((error: unknown) => log.warn({ err: error }, 'live clients\' sessions could not be read again'))
      .finally(() => {
        checking = undefined;
        if (checkAgain) {
          checkAgain = false;
          void recheck();
        }
      });
    return checking;
  };
  const sessionTimer = setInterval(() => void recheck(), options.sessionCheckMs ?? SESSION_CHECK_MAX_MS);
  sessionTimer.unref();

  return {
    /** Whether a client of this session may open one more stream; why not when it may not. */
    full(session: LiveSession): LiveStreamsFull | undefined {
      if ((perSession.get(session.id) ?? 0) >= maxPerSession) return 'session';
      if ((perUser.get(session.holder.userId) ?? 0) >= maxPerUser) return 'user';
      if (connections.size >= maxStreams) return 'process';
      return undefined;
    },
    /** Reads every client's session again now (this process just ended sessions or changed their holders). */
    checkSessions: recheck,
    /** Starts sending to a client whose response headers are written. */
    add(client: LiveClient) {
      const connection: Connection = { ...client, session: client.session && { ...client.session }, refreshedAt: now(), hearsKey: hearsKeyOf(client) };
      connections.add(connection);
      if (connection.session) {
        count(perSession, connection.session.id, 1);
        count(perUser, connection.session.holder.userId, 1);
      }
      unsubscribe ??= feed.subscribe(hear);
      client.sink.on('close', () => remove(connection));
      send(connection, ': connected\n\n');
    },
    get size() {
      return connections.size;
    },
    /** Ends every stream (the server is closing) and hears no more. */
    close() {
      clearInterval(heartbeat);
      clearInterval(sessionTimer);
      clearTimeout(timer);
      for (const connection of [...connections]) end(connection);
    },
  };
}

export type LiveStream = ReturnType<typeof liveStream>;
