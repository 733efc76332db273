import { sql, type SQLWrapper } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CampaignRound, CampaignStatus } from '../../../src/domain/campaign-rounds';
import { CATEGORY_LEVELS, type CategoryLevel } from '../../../src/domain/category-levels';
import type { ReconciliationAction, ReconciliationCounts, ReconciliationKind, StatementLineType } from '../../../src/domain/reconciliation';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userName: text('user_name').notNull(),
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('agent'),
    isAfcon: boolean('is_afcon').notNull().default(false),
    // Set while an admin has the account disabled: it cannot sign in and its sessions are refused.
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    // The TOTP secret, encrypted (auth/two-factor-secret.ts); enrolment completes when a first code is checked.
    twoFactorSecret: text('two_factor_secret'),
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    // The time step of the last code accepted: a code works once, even within its 30 s.
    twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
    // SHA-256 of each unused recovery code; one is removed as it is used.
    twoFactorRecoveryHashes: text('two_factor_recovery_hashes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_user_name_key').on(sql`lower(${t.userName})`), index('users_created_at_idx').on(t.createdAt)],
);

/**
 * A signed-in session (DESIGN §4): made at sign-in, its refresh tokens rotate within it, and every
 * access token carries its id, so revoking it ends the session everywhere.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * The second step of a sign-in with two-factor: made when the password was right, used up by the
 * first right code, ended by MAX failures or its expiry. Only the token's hash is stored.
 */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('two_factor_challenges_hash_key').on(t.tokenHash), index('two_factor_challenges_user_idx').on(t.userId)],
);

/** Rotating refresh tokens of a session, stored hashed; a used token coming back late revokes its session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The column keeps its first name: a session was called a token family.
    sessionId: uuid('family_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.sessionId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_resets_hash_key').on(t.tokenHash), index('password_resets_user_idx').on(t.userId)],
);

/**
 * Attempts counted per key (a user name, an address, an account's reset mails) in a window that
 * starts with the first one; one row per key, so a count is one atomic upsert (auth/attempt-limit.ts).
 */
export const attemptCounts = pgTable(
  'attempt_counts',
  {
    key: text('key').primaryKey(),
    attempts: integer('attempts').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('attempt_counts_window_idx').on(t.windowStartedAt)],
);

/** What the local mail provider "sent", so tests and operators can read it. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
});

const priceColumns = Object.fromEntries(
  CATEGORY_LEVELS.map((level) => [level, integer(`price_${level.toLowerCase()}`)]),
) as Record<CategoryLevel, ReturnType<typeof integer>>;

export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    ...priceColumns,
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('categories_name_key').on(sql`lower(${t.name})`),
    index('categories_user_idx').on(t.userId),
    index('categories_created_at_idx').on(t.createdAt),
  ],
);

export const serviceCodes = pgTable(
  'service_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('service_codes_name_key').on(t.name), index('service_codes_category_idx').on(t.categoryId)],
);

/** Ticket message contents; at most one active per category and level. */
export const contents = pgTable(
  'contents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name'),
    message: text('message').notNull(),
    description: text('description'),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    categoryLevel: text('category_level').notNull(),
    createdById: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    active: boolean('active').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('contents_one_active_key').on(t.categoryId, t.categoryLevel).where(sql`${t.active}`),
    index('contents_created_at_idx').on(t.createdAt),
  ],
);

export const smsMessages = pgTable(
  'sms_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    phoneNumber: text('phone_number').notNull(),
    message: text('message').notNull(),
    categoryLevel: text('category_level'),
    status: text('status').notNull().default('queued'),
    provider: text('provider').notNull().default('local'),
    providerRef: text('provider_ref'),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sms_messages_created_at_idx').on(t.createdAt),
    index('sms_messages_user_idx').on(t.userId, t.createdAt),
    index('sms_messages_provider_ref_idx').on(t.providerRef),
  ],
);

/**
 * Vote campaigns, created by staff (World Cup 2022 and AFCON 2024 are two of them): rounds (objects,
 * src/domain/campaign-rounds.ts) and teams are small lists. Draft → live (its code offers it) → closed.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    key: text('key').primaryKey(),
    name: text('name').notNull(),
    serviceCode: text('service_code').notNull(),
    status: text('status').$type<CampaignStatus>().notNull().default('draft'),
    rounds: jsonb('rounds').$type<CampaignRound[]>().notNull(),
    teams: jsonb('teams').$type<string[]>().notNull(),
    /** Votes one phone number may cast per round; null means no cap. */
    votesPerRoundCap: integer('votes_per_round_cap'),
    /** UGX a vote costs; null: the cheapest priced level of the code's category (else DEFAULT_VOTE_PRICE). */
    votePrice: integer('vote_price'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    /** Votes one number may cast in any minute before it is flagged `velocity` (vote integrity). */
    velocityPerMinute: integer('velocity_per_minute').notNull().default(10),
    /** Whether a flagged number's new votes settle held out of the counts until a reviewer decides. */
    holdSuspicious: boolean('hold_suspicious').notNull().default(false),
  },
  // One live campaign per service code: the code's menu is that campaign's.
  (t) => [uniqueIndex('campaigns_live_service_code').on(t.serviceCode).where(sql`${t.status} = 'live'`)],
);

/** The flags a call's state is made of, on a call or on its daily counts. */
interface CallFlags {
  isComplete: SQLWrapper;
  isDeleted: SQLWrapper;
}

/**
 * A call's state (src/domain/transaction-status.ts) as a predicate over its flags, written as the
 * partial indexes below say it so that PostgreSQL matches a query's WHERE to them.
 */
export const callIs = {
  processed: (t: CallFlags) => sql`${t.isComplete}`,
  failed: (t: CallFlags) => sql`${t.isDeleted} and not ${t.isComplete}`,
  pending: (t: CallFlags) => sql`not ${t.isComplete} and not ${t.isDeleted}`,
};

/** A pending call whose payment was requested: what the sweeper asks the provider about (transactions_pending_idx). */
export const awaitingPayment = (t: CallFlags & { paymentRef: SQLWrapper }) => sql`${callIs.pending(t)} and ${t.paymentRef} is not null`;

/** A pending call no payment was ever requested for: the sweeper fails it (transactions_unrequested_idx). */
export const paymentNeverRequested = (t: CallFlags & { paymentRef: SQLWrapper }) => sql`${callIs.pending(t)} and ${t.paymentRef} is null`;

/** One customer's call to a service code; campaign votes carry teams and a round. */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serviceCode: text('service_code').notNull(),
    phoneNumber: text('phone_number').notNull(),
    network: text('network').notNull(),
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'set null' }),
    categoryLevel: text('category_level'),
    amount: integer('amount'),
    sessionId: text('session_id'),
    paymentRef: text('payment_ref'),
    isComplete: boolean('is_complete').notNull().default(false),
    isDeleted: boolean('is_deleted').notNull().default(false),
    isResolved: boolean('is_resolved').notNull().default(false),
    resolvedById: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** Why it was resolved (src/domain/resolution.ts) and the resolver's note. */
    resolvedReason: text('resolved_reason'),
    resolvedNote: text('resolved_note'),
    /** Why the payment failed in the provider's own words (its status answer or callback), when it gave any. */
    failureReason: text('failure_reason'),
    callbackTime: timestamp('callback_time', { withTimezone: true }),
    messageStatuses: text('message_statuses'),
    ticketMessage: text('ticket_message'),
    /** The SMS provider's id of the latest ticket SMS, so its delivery report finds the call. */
    ticketSmsRef: text('ticket_sms_ref'),
    /** Until when one sweeper (of any instance) has taken this pending payment to ask the provider about. */
    sweepClaimedUntil: timestamp('sweep_claimed_until', { withTimezone: true }),
    campaignKey: text('campaign_key').references(() => campaigns.key),
    round: text('round'),
    teamName: text('team_name'),
    teamName2: text('team_name2'),
    createdAt: createdAt(),
    /**
     * A settled vote held out of the counts (`held`) until a reviewer releases it (`released`, it
     * counts) or rejects it (`rejected`, it never counts); null for a vote that was never held.
     */
    voteHold: text('vote_hold'),
    voteHoldBy: uuid('vote_hold_by').references(() => users.id, { onDelete: 'set null' }),
    voteHoldAt: timestamp('vote_hold_at', { withTimezone: true }),
    voteHoldReason: text('vote_hold_reason'),
  },
  (t) => [
    // Lists page newest first with id as tie-breaker, so each ordered index ends (created_at, id) DESC
    // NULLS FIRST, exactly what a plain ORDER BY ... DESC asks for (drizzle's desc() alone means NULLS
    // LAST, which the planner cannot use): a page then reads 50 index entries instead of sorting a day.
    index('transactions_code_time_idx').on(t.serviceCode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('transactions_time_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('transactions_phone_time_idx').on(t.phoneNumber, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('transactions_failed_idx')
      .on(t.serviceCode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(callIs.failed(t)),
    index('transactions_failed_time_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(callIs.failed(t)),
    // The few calls still waiting for their payment, for the sweeper (DESIGN §6).
    index('transactions_pending_idx').on(t.createdAt).where(awaitingPayment(t)),
    // Pending calls no payment was requested for (the USSD path always requests one; older data may hold some), for the sweeper to fail.
    index('transactions_unrequested_idx').on(t.createdAt).where(paymentNeverRequested(t)),
    // A voter's newest counted votes, in one round and in all rounds (ranking rows, 'View more'),
    // read from the index alone: the teams are carried in it.
    index('transactions_voter_round_idx')
      .on(t.campaignKey, t.round, t.phoneNumber, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.teamName, t.teamName2, t.voteHold)
      .where(sql`${t.campaignKey} is not null and ${t.isComplete}`),
    index('transactions_voter_idx')
      .on(t.campaignKey, t.phoneNumber, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.round, t.teamName, t.teamName2, t.voteHold)
      .where(sql`${t.campaignKey} is not null and ${t.isComplete}`),
    // The votes ever held (held, released, rejected), per campaign and number: few, for reviewers.
    index('transactions_vote_hold_idx')
      .on(t.campaignKey, t.phoneNumber, t.round)
      .where(sql`${t.voteHold} is not null`),
    uniqueIndex('transactions_payment_ref_key').on(t.paymentRef),
    uniqueIndex('transactions_session_key').on(t.sessionId),
    index('transactions_ticket_sms_ref_idx').on(t.ticketSmsRef).where(sql`${t.ticketSmsRef} is not null`),
    // Settled calls whose ticket SMS is not known sent (a process stopped between the two): a
    // handful at most, for the sweeper to send (DESIGN §6).
    index('transactions_ticket_sending_idx').on(t.callbackTime).where(sql`${t.messageStatuses} = 'Sending'`),
    check('transactions_vote_hold_check', sql`${t.voteHold} in ('held', 'released', 'rejected')`),
  ],
);

/**
 * The times of a phone number's recent confirmed payments (USSD_CONFIRMS_PER_MINUTE): one row per
 * number, updated under its row lock, so concurrent confirmations on any instance count exactly.
 */
export const ussdConfirmations = pgTable('ussd_confirmations', {
  phoneNumber: text('phone_number').primaryKey(),
  recent: timestamp('recent', { withTimezone: true }).array().notNull().default(sql`'{}'`),
});

/**
 * What the local (demo) payment provider decided for each payment and when it is due, so that after
 * a restart its status answers still settle the payments in flight, as a real provider's would.
 */
export const localPaymentDecisions = pgTable('local_payment_decisions', {
  reference: text('reference').primaryKey(),
  status: text('status').$type<'SUCCESSFUL' | 'FAILED'>().notNull(),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
});

/**
 * A call's history (DESIGN §6): USSD hops, payment requested, callbacks, polls, settlement, SMS sent,
 * delivery reports, resolved, ticket resent. Hops before the call exists carry only the session id;
 * the timeline reads both. `dedupeKey` makes a repeated callback or hop record nothing twice.
 */
export const transactionEvents = pgTable(
  'transaction_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: uuid('transaction_id').references(() => transactions.id, { onDelete: 'cascade' }),
    sessionId: text('session_id'),
    kind: text('kind').notNull(),
    /** Who or what caused it: 'customer', 'provider:momo', 'sweeper', 'user' (with actorUserId)… */
    actor: text('actor').notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('transaction_events_transaction_idx').on(t.transactionId, t.id),
    index('transaction_events_session_idx').on(t.sessionId, t.id).where(sql`${t.sessionId} is not null`),
    // A session's hops not yet linked to its call (attachSessionHopsSql). Without it the planner
    // paired the session index with transaction_events_transaction_idx's null entries, every dead
    // one of them since the last vacuum: 60,000 index entries and 6 ms a call in the vote surge.
    index('transaction_events_unattached_idx').on(t.sessionId).where(sql`${t.transactionId} is null and ${t.sessionId} is not null`),
    uniqueIndex('transaction_events_dedupe_key').on(t.dedupeKey),
  ],
);

/**
 * Calls per service code and service-zone day, counted three ways (by hour, by category level, by
 * network) and split by status, with their amounts. Triggers on `transactions` keep it in step in
 * the same statement (migration 0002), so a list's total and the dashboard read a few dozen rows
 * instead of counting a day's calls on every request.
 */
export const transactionDailyStats = pgTable(
  'transaction_daily_stats',
  {
    serviceCode: text('service_code').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    /** 'hour' (key '0'…'23'), 'level' (key the category level, '' for none) or 'network'. */
    dimension: text('dimension').$type<StatsDimension>().notNull(),
    key: text('key').notNull(),
    isComplete: boolean('is_complete').notNull(),
    isDeleted: boolean('is_deleted').notNull(),
    /**
     * Which of the counter's rows this is: each database backend writes its own stripe (the database's
     * counter_stripe()), so concurrent sales do not queue on one hot row; readers sum over the stripes.
     */
    stripe: smallint('stripe').notNull().default(0),
    calls: integer('calls').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'transaction_daily_stats_pkey', columns: [t.serviceCode, t.day, t.dimension, t.key, t.isComplete, t.isDeleted, t.stripe] }),
    index('transaction_daily_stats_day_idx').on(t.day),
  ],
);

/**
 * Counted votes (processed campaign transactions) per campaign, round and phone number, with the
 * time of the voter's last counted vote; round 'all' holds the voter's votes over every round.
 * Triggers on `transactions` keep it in step in the same statement (campaign vote counts migration),
 * so a ranking page reads 50 index entries instead of counting the votes. Rows may fall to 0 votes.
 */
export const campaignVoters = pgTable(
  'campaign_voters',
  {
    campaignKey: text('campaign_key').notNull(),
    round: text('round').notNull(),
    phoneNumber: text('phone_number').notNull(),
    votes: integer('votes').notNull(),
    lastVoteAt: timestamp('last_vote_at', { withTimezone: true }),
    /**
     * The voter's newest counted votes in the round (at most 50, SPEC §7) as the JSON array text a
     * ranking row carries, kept by the same trigger (migration 0007), so a ranking page reads 50 rows
     * instead of 2,500 votes.
     */
    recentVotes: text('recent_votes').notNull().default('[]'),
  },
  (t) => [
    primaryKey({ name: 'campaign_voters_pkey', columns: [t.campaignKey, t.round, t.phoneNumber] }),
    // The ranking order: most votes, then the earlier last vote, then the phone number.
    index('campaign_voters_ranking_idx')
      .on(t.campaignKey, t.round, t.votes.desc().nullsFirst(), t.lastVoteAt.asc().nullsLast(), t.phoneNumber.asc().nullsLast())
      .where(sql`${t.votes} > 0`),
  ],
);

/**
 * How each number voted in a round ('all': every round), as vote integrity reads it: every settled
 * vote, held and rejected ones included (they are how the number voted), where `campaign_voters`
 * holds counted votes only. The vote trigger keeps it as votes settle: a new vote moves the peak
 * by the windows around it alone, so a ranking page, the suspicious list and a settling vote's hold
 * check read a row a number instead of its votes. The flags are not stored: their thresholds are
 * the campaign's and may change (src/domain/vote-integrity.ts).
 */
export const campaignVoterFigures = pgTable(
  'campaign_voter_figures',
  {
    campaignKey: text('campaign_key').notNull(),
    round: text('round').notNull(),
    phoneNumber: text('phone_number').notNull(),
    votes: integer('votes').notNull(),
    heldVotes: integer('held_votes').notNull(),
    /** The most votes in any 60 seconds; in 'all', across rounds. */
    peakPerMinute: integer('peak_per_minute').notNull(),
    /** The votes of the number's fullest round: its share of the per-round cap (a round's row: its votes). */
    fullestRoundVotes: integer('fullest_round_votes').notNull(),
    firstVoteAt: timestamp('first_vote_at', { withTimezone: true }).notNull(),
    /** The first vote itself (the earliest, then the lowest id) and its pick ('' for no second team), which `burst` groups by. */
    firstVoteId: uuid('first_vote_id').notNull(),
    firstTeamName: text('first_team_name').notNull(),
    firstTeamName2: text('first_team_name2').notNull(),
    lastVoteAt: timestamp('last_vote_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'campaign_voter_figures_pkey', columns: [t.campaignKey, t.round, t.phoneNumber] }),
    // `burst`: the numbers of one prefix whose first vote in a round was the same pick, near a given
    // time, read from the index alone (the phone number ends it). The 9 is BURST_PREFIX_DIGITS (src/domain/vote-integrity.ts); the queries write it as this literal.
    index('campaign_voter_figures_burst_idx')
      .on(t.campaignKey, t.round, t.firstTeamName, sql`left(${t.phoneNumber}, 9)`, t.firstTeamName2, t.firstVoteAt, t.phoneNumber)
      .where(sql`${t.round} <> 'all'`),
  ],
);

/** Counted votes per campaign, round and pick (`teamName2` '' for a single-team prediction), kept like `campaign_voters`. */
export const campaignTeamVotes = pgTable(
  'campaign_team_votes',
  {
    campaignKey: text('campaign_key').notNull(),
    round: text('round').notNull(),
    teamName: text('team_name').notNull(),
    teamName2: text('team_name2').notNull(),
    stripe: smallint('stripe').notNull().default(0),
    votes: integer('votes').notNull(),
  },
  (t) => [primaryKey({ name: 'campaign_team_votes_pkey', columns: [t.campaignKey, t.round, t.teamName, t.teamName2, t.stripe] })],
);

/** Counted votes and distinct voters per campaign and round ('all' for every round), kept like `campaign_voters`. */
export const campaignRoundTotals = pgTable(
  'campaign_round_totals',
  {
    campaignKey: text('campaign_key').notNull(),
    round: text('round').notNull(),
    stripe: smallint('stripe').notNull().default(0),
    votes: integer('votes').notNull(),
    voters: integer('voters').notNull(),
  },
  (t) => [primaryKey({ name: 'campaign_round_totals_pkey', columns: [t.campaignKey, t.round, t.stripe] })],
);

/**
 * Trouble the incident detector noticed (DESIGN §7): at most one open incident per kind and
 * service code (null: the whole service), so whichever instance notices first opens it and the
 * others' inserts do nothing; closing is a conditional update, so it closes once too.
 */
export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serviceCode: text('service_code'),
    kind: text('kind').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The figures that opened it (counts, shares, thresholds). */
    figures: jsonb('figures').$type<Record<string, number | string | null>>().notNull(),
    /** Who took it on, once: their user name is kept as it was, so the card and the stream name them without a join. */
    acknowledgedById: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgedByName: text('acknowledged_by_name'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('incidents_open_key').on(t.kind, sql`coalesce(${t.serviceCode}, '')`).where(sql`${t.closedAt} is null`),
    index('incidents_opened_idx').on(t.openedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/**
 * A payment provider's statement as finance uploaded it (DESIGN §7): one row per file, known by
 * the hash of its bytes so the same file twice is one statement (while it stands: a voided one's
 * file may be uploaded again). `counts` are its rows per kind, fixed when it is read (what staff do
 * later shows on the rows, not in the kinds). Its rows are written in batches, so it is only shown
 * once `importedAt` is set.
 */
export const reconciliationStatements = pgTable(
  'reconciliation_statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contentHash: text('content_hash').notNull(),
    fileName: text('file_name'),
    uploadedById: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    lines: integer('lines').notNull(),
    periodFrom: timestamp('period_from', { withTimezone: true }).notNull(),
    periodTo: timestamp('period_to', { withTimezone: true }).notNull(),
    periodDeclared: boolean('period_declared').notNull().default(false),
    counts: jsonb('counts').$type<ReconciliationCounts>().notNull(),
    createdAt: createdAt(),
    importedAt: timestamp('imported_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedById: uuid('voided_by').references(() => users.id, { onDelete: 'set null' }),
    voidReason: text('void_reason'),
  },
  (t) => [
    uniqueIndex('reconciliation_statements_content_hash_key').on(t.contentHash).where(sql`${t.voidedAt} is null`),
    index('reconciliation_statements_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/**
 * A statement's rows: each line of the file with the call of its reference, and each paid call the
 * file has no line for although it settled within the file's period (`line` null). `seq` keeps the
 * file's order (lines first, then the calls it left out); `action` is what staff did about the row.
 */
export const reconciliationRows = pgTable(
  'reconciliation_rows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => reconciliationStatements.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ReconciliationKind>().notNull(),
    // PAYMENT matches a call by its payment reference; REFUND a refund by its provider reference.
    type: text('type').$type<StatementLineType>().notNull().default('PAYMENT'),
    line: integer('line'),
    reference: text('reference').notNull(),
    amount: numeric('amount', { precision: 14, scale: 2 }),
    currency: text('currency'),
    status: text('status'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    transactionId: uuid('transaction_id').references(() => transactions.id, { onDelete: 'set null' }),
    refundId: uuid('refund_id').references((): AnyPgColumn => refunds.id, { onDelete: 'set null' }),
    action: text('action').$type<ReconciliationAction>(),
    actionById: uuid('action_by').references(() => users.id, { onDelete: 'set null' }),
    actionAt: timestamp('action_at', { withTimezone: true }),
    note: text('note'),
  },
  (t) => [
    index('reconciliation_rows_statement_idx').on(t.statementId, t.seq),
    index('reconciliation_rows_statement_kind_idx').on(t.statementId, t.kind, t.seq),
    // Whether another statement already accounts for a call as paid (a later statement's missing lines).
    index('reconciliation_rows_reference_idx').on(t.reference),
    // Whether a statement shows a call paid (a refund of a paid-no-ticket call) or a refund settled (a later statement's missing refunds).
    index('reconciliation_rows_transaction_idx').on(t.transactionId).where(sql`${t.transactionId} is not null`),
    index('reconciliation_rows_refund_idx').on(t.refundId).where(sql`${t.refundId} is not null`),
  ],
);

export type StatsDimension = 'hour' | 'level' | 'network';

/**
 * The service's settings the database itself needs: one row. The stats triggers count days and
 * hours in `timeZone` (migration 0004), which the server sets from TZ_NAME at start.
 */
export const serviceSettings = pgTable(
  'service_settings',
  {
    id: integer('id').primaryKey().default(1),
    timeZone: text('time_zone').notNull().default('Africa/Kampala'),
  },
  (t) => [check('service_settings_one_row', sql`${t.id} = 1`)],
);

/**
 * The audit trail: one row per staff action, append-only (a trigger refuses UPDATE, DELETE and
 * TRUNCATE). `hash` chains each entry to the one before it (server/src/audit/), so an entry
 * altered or removed outside the API is found by GET /v1/audit/verify. `seq` is its place in
 * the chain: 1, 2, 3… without gaps.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    actorId: uuid('actor_id'),
    actorUserName: text('actor_user_name'),
    actorRole: text('actor_role'),
    ip: text('ip'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    entityLabel: text('entity_label').notNull(),
    serviceCode: text('service_code'),
    changes: jsonb('changes').$type<{ field: string; before: unknown; after: unknown }[]>().notNull(),
    reason: text('reason'),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_log_seq_key').on(t.seq),
    index('audit_log_entity_idx').on(t.entityType, t.entityId, t.seq),
    index('audit_log_actor_idx').on(t.actorId, t.seq),
    index('audit_log_at_idx').on(t.at),
  ],
);

/**
 * The chain's head: the last entry's place and hash, one row. Appending locks it (FOR UPDATE), so
 * concurrent writers on any number of API processes chain one after the other.
 */
export const auditHead = pgTable(
  'audit_head',
  {
    id: integer('id').primaryKey().default(1),
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    hash: text('hash').notNull(),
  },
  (t) => [check('audit_head_one_row', sql`${t.id} = 1`)],
);


/**
 * Money back for a processed call (src/domain/refunds.ts). The database holds the rules under
 * concurrency: a trigger locks the call's row and refuses a refund of a call that is not processed,
 * a second open one, or one that would take the refunds past the call's amount; the partial unique
 * index keeps one open refund per call whatever path writes. `providerRef` is ours, made with the
 * row, so every submission of it to the provider carries the same reference.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    // Left out, the trigger sets what is left of the call's amount.
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    state: text('state').notNull().default('requested'),
    providerRef: uuid('provider_ref').notNull().defaultRandom(),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decisionReason: text('decision_reason'),
    failureReason: text('failure_reason'),
    /** Until when one sweeper (of any instance) has taken this refund to ask the provider about. */
    sweepClaimedUntil: timestamp('sweep_claimed_until', { withTimezone: true }),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refunds_provider_ref_key').on(t.providerRef),
    uniqueIndex('refunds_one_open_key').on(t.transactionId).where(sql`${t.state} in ('requested', 'approved', 'submitted', 'unknown')`),
    index('refunds_transaction_idx').on(t.transactionId, t.createdAt),
    index('refunds_state_idx').on(t.state, t.createdAt),
    index('refunds_created_idx').on(t.createdAt),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
  ],
);
