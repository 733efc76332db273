import type { SwaggerTransform } from '@fastify/swagger';
import type { OpenAPIV3 } from 'openapi-types';
import type { AnyObjectSchema } from 'yup';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../src/domain/audit';
import { CATEGORY_LEVELS } from '../../src/domain/category-levels';
import { INCIDENT_KINDS } from '../../src/domain/incidents';
import { BULK_RESOLVE_OUTCOMES, RESOLVE_REASONS } from '../../src/domain/resolution';
import { REFUND_REASONS, REFUND_STATES } from '../../src/domain/refunds';
import { ROLES } from '../../src/domain/roles';
import { TRANSACTION_STATUSES } from '../../src/domain/schemas/transactions';
import { VOTE_FLAGS } from '../../src/domain/vote-integrity';
import { isException, RECONCILIATION_KIND_HELP, RECONCILIATION_KINDS, STATEMENT_LINE_TYPES, STATEMENT_STATUSES } from '../../src/domain/reconciliation';
import { TRANSACTION_EVENT_KINDS } from '../../src/domain/transaction-events';

/**
 * The OpenAPI document at /docs. Routes keep validating with the domain's yup schemas
 * (SPEC's words per field); `documented` derives the document's body and query from those same
 * schemas, and adds the answer, so nothing is described twice. It is used as the route's
 * `config.swaggerTransform` and only documents: Fastify never validates or serializes with it.
 */

export type JsonSchema = { [key: string]: unknown };

type FieldDescription = {
  type: string;
  /** An array's item. */
  innerType?: FieldDescription;
  optional?: boolean;
  nullable?: boolean;
  default?: unknown;
  oneOf?: unknown[];
  tests?: { name?: string; params?: Record<string, unknown> }[];
};

const JSON_TYPES = new Set(['string', 'number', 'boolean']);

/** One yup field as JSON schema: type, bounds, pattern, choices, nullability and default. */
function fieldSchema(field: FieldDescription): JsonSchema {
  const array = field.type === 'array';
  const property: JsonSchema = JSON_TYPES.has(field.type) ? { type: field.type } : array ? { type: 'array', items: field.innerType ? fieldSchema(field.innerType) : {} } : {};
  const text = field.type === 'string';
  const [min, max] = text ? ['minLength', 'maxLength'] : array ? ['minItems', 'maxItems'] : ['minimum', 'maximum'];
  for (const test of field.tests ?? []) {
    const params = test.params ?? {};
    if (test.name === 'min' && typeof params.min === 'number') property[min] = params.min;
    else if (test.name === 'max' && typeof params.max === 'number') property[max] = params.max;
    else if (test.name === 'length' && typeof params.length === 'number') Object.assign(property, { minLength: params.length, maxLength: params.length });
    else if (test.name === 'matches' && params.regex instanceof RegExp) property.pattern = params.regex.source;
    else if (test.name === 'email') property.format = 'email';
    else if (test.name === 'integer') property.type = 'integer';
  }
  // Only literal choices: a reference to another field (confirmPassword) is no enum.
  const options = (field.oneOf ?? []).filter((v) => v !== undefined && v !== null && typeof v !== 'object');
  if (options.length > 0) property.enum = options;
  if (field.nullable) property.nullable = true;
  if (field.default !== undefined) property.default = field.default;
  return property;
}

/** A yup object schema (a body, query or path) as a JSON schema object; the one conversion there is. */
export function jsonSchemaOf(schema: AnyObjectSchema): JsonSchema {
  const fields = schema.describe().fields as Record<string, FieldDescription>;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = fieldSchema(field);
    if (!field.optional) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

// ---- Answers -------------------------------------------------------------------------------

export const ref = (name: keyof typeof COMPONENT_SCHEMAS) => ({ $ref: `#/components/schemas/${name}` });
const string = { type: 'string' } as const;
const nullableString = { type: 'string', nullable: true } as const;
const integer = { type: 'integer' } as const;
const id = { type: 'string', format: 'uuid' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const day = { type: 'string', format: 'date', description: 'A calendar day, YYYY-MM-DD, in the service time zone' } as const;
export const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', properties, required });

const named = object({ _id: id, name: string });
const categoryLevel = { type: 'string', enum: [...CATEGORY_LEVELS] };
// OpenAPI 3.0 reads `nullable` only beside a `type`.
const userRefOrNull = { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/UserRef' }] };
/** A component or null, in a form validators read the same way (`nullable` beside `allOf` they read as never null). */
const voteFlags = { type: 'array', items: { type: 'string', enum: [...VOTE_FLAGS] }, description: "velocity: more than the campaign's velocityPerMinute in 60 seconds; near-cap: at least 80% of the per-round cap; burst: one of 10 or more numbers of one block of 1,000 numbers (the first 9 digits) first voting for one pick within 60 seconds" };
const refOrNull = (name: string, description: string) => ({ description, oneOf: [{ $ref: `#/components/schemas/${name}` }, { type: 'object', nullable: true, enum: [null] }] });

/**
 * The entities of src/domain/entities.ts as the API answers them (SPEC §3), put in the document's
 * components. server/test/openapi.test.ts checks real answers against them.
 */
export const COMPONENT_SCHEMAS = {
  FieldError: object({ field: string, message: string }),
  Failure: {
    ...object(
      {
        status: { type: 'boolean', enum: [false] },
        message: string,
        errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
        requestId: { type: 'string', description: "A server error's (5xx) request id, the answer's X-Request-Id: quote it to support, who find the request's log lines by it" },
      },
      ['status', 'message', 'errors'],
    ),
    description: 'The failure envelope (DESIGN §3): a message and one error per field, never echoing the input',
  },
  UserRef: object({ _id: id, userName: string }),
  User: object(
    {
      _id: id,
      userName: string,
      role: { type: 'string', enum: [...ROLES] },
      email: { ...nullableString, format: 'email' },
      isAfcon: { type: 'boolean' },
      createdAt: dateTime,
      disabled: { type: 'boolean', description: 'An admin disabled the account: it cannot sign in' },
      lastSignInAt: { ...dateTime, nullable: true },
      twoFactorEnabled: { type: 'boolean' },
    },
    ['_id', 'userName', 'role', 'isAfcon', 'createdAt', 'disabled', 'lastSignInAt', 'twoFactorEnabled'],
  ),
  LoginUser: object({
    id,
    userName: string,
    role: { type: 'string', enum: [...ROLES] },
    serviceCode: { type: 'array', items: object({ _id: id, name: string }, ['name']), description: 'The service codes the user reads' },
    isAfcon: { type: 'boolean' },
  }),
  Session: object(
    {
      user: { $ref: '#/components/schemas/LoginUser' },
      accessToken: string,
      refreshToken: string,
      twoFactorSetupRequired: { type: 'boolean', enum: [true], description: 'The role requires two-factor sign-in (REQUIRE_2FA_ROLES): the tokens reach only its set-up and the profile until enrolled' },
    },
    ['user', 'accessToken', 'refreshToken'],
  ),
  TwoFactorChallenge: object({
    twoFactorRequired: { type: 'boolean', enum: [true] },
    challenge: { type: 'string', description: 'For POST /v1/auth/2fa/verify, within 5 minutes and 5 attempts' },
  }),
  TwoFactorSetup: object({
    secret: { type: 'string', description: 'Base32, to type into an authenticator app' },
    otpauthUrl: { type: 'string', description: 'otpauth://totp/… for a QR code' },
  }),
  RecoveryCodes: object({ recoveryCodes: { type: 'array', items: string, minItems: 10, maxItems: 10, description: 'Shown this once; each works once' } }),
  Category: object(
    {
      _id: id,
      name: string,
      description: nullableString,
      user: { ...userRefOrNull, description: 'The agent who owns the category' },
      createdAt: dateTime,
      ...Object.fromEntries(CATEGORY_LEVELS.map((level) => [level, { type: 'number', nullable: true, description: `Price of a ${level} ticket in UGX` }])),
    },
    ['_id', 'name', 'user', 'createdAt'],
  ),
  ServiceCode: object({
    _id: id,
    name: { type: 'string', example: '*217*4#' },
    description: nullableString,
    category: { type: 'object', nullable: true, properties: { ...named.properties, user: userRefOrNull }, required: ['_id', 'name', 'user'] },
    createdAt: dateTime,
  }, ['_id', 'name', 'category', 'createdAt']),
  Content: object(
    {
      _id: id,
      name: nullableString,
      message: { type: 'string', description: 'The ticket SMS sent once a payment succeeds' },
      description: nullableString,
      categoryLevel,
      category: { ...named, nullable: true },
      createdBy: userRefOrNull,
      active: { type: 'boolean' },
      createdAt: dateTime,
    },
    ['_id', 'message', 'categoryLevel', 'category', 'createdBy', 'active', 'createdAt'],
  ),
  SmsRecord: object(
    {
      _id: id,
      user: userRefOrNull,
      phoneNumber: string,
      message: string,
      categoryLevel: { ...categoryLevel, nullable: true },
      status: { type: 'string', enum: ['queued', 'sent', 'delivered', 'failed'] },
      createdAt: dateTime,
    },
    ['_id', 'user', 'phoneNumber', 'message', 'status', 'createdAt'],
  ),
  Transaction: object(
    {
      _id: id,
      name: { type: 'string', description: 'The service code dialled' },
      shortCode: { type: 'object', nullable: true, properties: { name: string }, required: ['name'] },
      phoneNumber: string,
      network: string,
      createdAt: dateTime,
      callbackTime: { ...dateTime, nullable: true },
      isComplete: { type: 'boolean' },
      isDeleted: { type: 'boolean' },
      isResolved: { type: 'boolean' },
      categoryLevel: nullableString,
      category: { ...named, nullable: true },
      amount: { type: 'number', nullable: true },
      campaignKey: { ...nullableString, description: "A campaign vote's campaign key ('world-cup-2022', 'afcon-2024', or any created campaign's); null on other calls" },
      round: { ...nullableString, description: "A campaign vote's round key ('general', 'week2', 'final', or a created campaign's own)" },
      teamName: { ...nullableString, description: "A campaign vote's pick" },
      teamName2: { ...nullableString, description: "The other team of the pick's game ('teamName2 vs teamName'); null for a general pick" },
      messageStatuses: nullableString,
      ticket: { type: 'object', nullable: true, properties: { message: string }, required: ['message'] },
      paymentRef: { ...nullableString, description: 'The mobile-money reference, for reconciling with the payment provider' },
      resolvedBy: { type: 'object', nullable: true, properties: { _id: id, userName: string }, required: ['_id', 'userName'], description: 'Who marked the failed call resolved (null until then, or when that user is gone)' },
      resolvedAt: { ...dateTime, nullable: true, description: 'When it was marked resolved' },
      resolvedReason: { type: 'string', nullable: true, enum: [...RESOLVE_REASONS, null], description: 'Why it was resolved, when the resolver said' },
      resolvedNote: { ...nullableString, description: "The resolver's note" },
      failureReason: { ...nullableString, description: "Why the payment failed in the provider's own words (its status answer or callback), or null when it gave none" },
      refundedAmount: { ...integer, description: 'What completed refunds gave back, in UGX; 0 when none' },
    },
    // Every field is always there (server/src/repositories/transaction-reads.ts), null when unknown.
  ),
  TransactionEvent: object(
    {
      _id: string,
      kind: { type: 'string', enum: [...TRANSACTION_EVENT_KINDS] },
      at: dateTime,
      actor: { type: 'string', description: "Who or what caused it: 'customer', 'provider:<name>', 'sweeper', 'system' or 'user'" },
      actorUserName: { ...nullableString, description: 'The staff member, when a person caused it' },
      detail: { type: 'object', additionalProperties: {}, description: 'Small flat facts: the input and reply of a hop, a provider or SMS status' },
    },
    ['_id', 'kind', 'at', 'actor', 'detail'],
  ),
  ReconciliationCounts: {
    ...object(Object.fromEntries(RECONCILIATION_KINDS.map((kind) => [kind, { ...integer, description: RECONCILIATION_KIND_HELP[kind] }]))),
    description: "A statement's rows per kind, as sorted when it was uploaded",
  },
  ReconciliationStatement: object({
    _id: id,
    fileName: { ...nullableString, description: 'The name the file was uploaded with, when given' },
    uploadedBy: refOrNull('UserRef', 'Who uploaded it (null when that account is gone)'),
    createdAt: dateTime,
    lines: { ...integer, description: 'Lines read from the file, its header not counted' },
    periodFrom: { ...dateTime, description: 'The earliest completedAt of its lines, or the start of the first declared day' },
    periodTo: { ...dateTime, description: 'The latest completedAt of its lines, or the end of the last declared day' },
    periodDeclared: { type: 'boolean', description: 'The upload declared the period (?periodFrom=&periodTo=)' },
    counts: { $ref: '#/components/schemas/ReconciliationCounts' },
    open: {
      ...object(Object.fromEntries(RECONCILIATION_KINDS.filter(isException).map((kind) => [kind, integer]))),
      description: 'Exception rows (every kind but matched) nobody has acted on yet, per kind',
    },
    voidedAt: { ...dateTime, nullable: true, description: 'When a manager voided it (null while it stands): out of the default list, vouching for no payment' },
    voidedBy: refOrNull('UserRef', 'Who voided it'),
    voidReason: { ...nullableString, description: 'Why it was voided' },
  }),
  ReconciliationRow: object({
    _id: id,
    kind: { type: 'string', enum: [...RECONCILIATION_KINDS] },
    type: { type: 'string', enum: [...STATEMENT_LINE_TYPES], description: "PAYMENT (matched to a call by its payment reference) or REFUND (matched to a refund by its provider reference)" },
    refund: {
      description: "A REFUND row's refund (the one its reference names, or the completed one the statement left out); on a PAYMENT row its call's latest refund not rejected or failed; else null",
      oneOf: [object({ _id: id, amount: integer, state: { type: 'string', enum: [...REFUND_STATES] }, providerRef: id }), { type: 'object', nullable: true, enum: [null] }],
    },
    line: { ...integer, nullable: true, description: "The file's line, or null for a paid call or a completed refund the file has no line for" },
    reference: { type: 'string', description: "The payment reference, or a REFUND row's provider reference" },
    amount: { type: 'number', nullable: true },
    currency: nullableString,
    status: { type: 'string', nullable: true, enum: [...STATEMENT_STATUSES, null] },
    completedAt: { ...dateTime, nullable: true },
    transaction: refOrNull('Transaction', "The call of the reference (of a REFUND row, its refund's call) as it is now, or null when none has it"),
    action: { type: 'string', nullable: true, enum: ['ticket_issued', 'reviewed', null], description: "What staff did: 'Issue ticket' or 'Mark reviewed'" },
    actionBy: refOrNull('UserRef', 'Who acted on the row'),
    actionAt: { ...dateTime, nullable: true },
    note: nullableString,
  }),
  VoteTransaction: object({ _id: string, createdAt: dateTime, teamName: string, teamName2: nullableString }, ['_id', 'createdAt', 'teamName']),
  VoteRow: object({
    _id: { type: 'string', description: 'The phone number' },
    phoneNumber: string,
    serviceCode: string,
    count: { ...integer, description: 'Counted votes' },
    peakPerMinute: { ...integer, description: "The most of the number's settled votes in the round within any 60 seconds" },
    flags: voteFlags,
    transactions: { type: 'array', items: { $ref: '#/components/schemas/VoteTransaction' }, description: 'The 50 newest votes' },
  }),
  CampaignRound: object(
    {
      key: string,
      label: string,
      kind: { type: 'string', enum: ['teams', 'games'], description: "'teams': pick one of the teams; 'games': pick the winner of one of the round's games" },
      games: { type: 'array', items: { type: 'array', items: string, minItems: 2, maxItems: 2 }, description: "A games round's games, as pairs of teams" },
      opensAt: { ...dateTime, nullable: true },
      closesAt: { ...dateTime, nullable: true },
      closedAt: { ...dateTime, nullable: true, description: 'When the round was closed by hand' },
    },
    ['key', 'label', 'kind'],
  ),
  Campaign: object(
    {
      key: string,
      name: string,
      serviceCode: string,
      status: { type: 'string', enum: ['draft', 'live', 'closed'], description: 'draft → live (published: its code offers it) → closed' },
      rounds: { type: 'array', items: { $ref: '#/components/schemas/CampaignRound' } },
      teams: { type: 'array', items: string },
      votesPerRoundCap: { ...integer, nullable: true },
      votePrice: { ...integer, nullable: true, description: "UGX a vote costs; null: the cheapest priced level of the code's category" },
      velocityPerMinute: { ...integer, description: "Votes one number may cast in any minute before it is flagged 'velocity'" },
      holdSuspicious: { type: 'boolean', description: "Whether a flagged number's new votes settle held out of the counts until a reviewer decides" },
      publishedAt: { ...dateTime, nullable: true },
      closedAt: { ...dateTime, nullable: true },
      totalVotes: { ...integer, description: 'Counted votes over every round (in the list only)' },
      revenue: { ...integer, description: 'UGX of the counted votes (in the list only)' },
    },
    ['key', 'name', 'serviceCode', 'status', 'rounds', 'teams', 'votesPerRoundCap', 'votePrice', 'velocityPerMinute', 'holdSuspicious', 'publishedAt', 'closedAt'],
  ),
  SuspiciousVoter: object({
    phoneNumber: string,
    votes: { ...integer, description: 'Settled votes in the round, held and rejected ones included' },
    peakPerMinute: { ...integer, description: 'The most of them within any 60 seconds' },
    shareOfCap: { type: 'number', nullable: true, description: "The fullest round's votes over the per-round cap; null without a cap" },
    firstVoteAt: dateTime,
    lastVoteAt: dateTime,
    heldVotes: { ...integer, description: 'Votes held out of the counts, awaiting a release or a rejection' },
    flags: voteFlags,
  }),
  HeldVotesDecision: object({
    phoneNumber: string,
    decision: { type: 'string', enum: ['released', 'rejected'] },
    votes: { ...integer, description: 'Held votes the decision took' },
    rounds: { type: 'array', items: string, description: 'The rounds they were in' },
  }),
  CampaignResults: object({
    round: nullableString,
    totalVotes: integer,
    distinctVoters: integer,
    teams: { type: 'array', items: object({ teamName: string, votes: integer }) },
    games: { type: 'array', items: object({ teamName: string, teamName2: string, votes: integer }) },
  }),
  Refund: object({
    _id: id,
    transactionId: id,
    amount: { ...integer, description: 'UGX' },
    reason: { type: 'string', enum: [...REFUND_REASONS] },
    note: nullableString,
    state: { type: 'string', enum: [...REFUND_STATES], description: "requested → approved | rejected → submitted → completed | failed; unknown while the provider's answer to the submission is uncertain" },
    providerRef: { ...id, description: 'Our reference with the provider: stored before the provider is first asked, reused on every retry' },
    requestedBy: userRefOrNull,
    decidedBy: userRefOrNull,
    decisionReason: { ...nullableString, description: "The manager's reason (a rejection's, or the self-approval rule)" },
    failureReason: nullableString,
    phoneNumber: string,
    serviceCode: string,
    callAmount: { type: 'number', nullable: true, description: "The call's amount" },
    createdAt: dateTime,
    decidedAt: { ...dateTime, nullable: true },
    submittedAt: { ...dateTime, nullable: true },
    settledAt: { ...dateTime, nullable: true },
    updatedAt: dateTime,
  }),
  Incident: object({
    _id: id,
    serviceCode: { ...nullableString, description: 'The service code it concerns; null for the whole service (payment provider, SMS gateway)' },
    kind: { type: 'string', enum: [...INCIDENT_KINDS] },
    openedAt: dateTime,
    closedAt: { ...dateTime, nullable: true, description: 'Null while it is open' },
    figures: { type: 'object', additionalProperties: {}, description: 'The figures that opened it: counts, shares from 0 to 1, thresholds' },
    acknowledgedBy: { ...nullableString, description: 'The user name of who acknowledged it; null until someone does' },
    acknowledgedAt: { ...dateTime, nullable: true, description: 'When it was acknowledged' },
    note: { ...nullableString, description: 'What the person who acknowledged it said' },
  }),
  ServiceCodeToday: object({
    _id: id,
    name: { type: 'string', example: '*217*4#' },
    category: { type: 'object', nullable: true, properties: named.properties, required: ['_id', 'name'] },
    calls: { ...integer, description: "Today's calls (service time zone)" },
    failed: { ...integer, description: "Today's failed calls" },
    failedShare: { type: 'number', description: 'failed / calls, from 0 to 1 (0 without calls)' },
  }),
  AuditEntry: object({
    _id: id,
    at: dateTime,
    actor: {
      ...object({ _id: { ...id, nullable: true }, userName: nullableString, role: nullableString }),
      description: 'Who: all null for the system; a failed sign-in carries only the user name tried',
    },
    ip: { ...nullableString, description: 'The address the request came from' },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    entity: object({ type: { type: 'string', enum: [...AUDIT_ENTITY_TYPES] }, id: nullableString, label: { type: 'string', example: 'Category Premier League Tips' } }),
    serviceCode: nullableString,
    changes: {
      type: 'array',
      items: object({
        field: { type: 'string', example: 'price.vip' },
        before: { description: 'Any JSON value; null when the field had none (a creation)', example: 5000 },
        after: { description: 'Any JSON value', example: 6000 },
      }),
      description: "One per field that changed; a password, token or secret as '[changed]', never its value",
    },
    reason: nullableString,
    hash: { type: 'string', description: "hex SHA-256 of the previous entry's hash and this entry's canonical JSON (README, 'Audit trail')" },
  }),
  AuditVerification: object({
    ok: { type: 'boolean', description: 'Every hash chains to the one before and the newest entry is the head' },
    entries: { ...integer, description: 'Entries checked' },
    firstBrokenId: { ...id, nullable: true, description: 'The first entry altered, or following one removed' },
  }),
  CustomerSummary: object({
    phoneNumber: { ...string, example: '256772000901' },
    firstSeenAt: { ...dateTime, nullable: true, description: "The number's first call in the caller's scope; null without calls" },
    lastSeenAt: { ...dateTime, nullable: true, description: 'Its latest call' },
    calls: integer,
    processed: integer,
    failed: integer,
    spent: { type: 'number', description: 'Sum of the amounts of its processed calls' },
    refunded: { type: 'number', description: 'Paid back to the number' },
    votes: { ...integer, description: 'Processed campaign votes' },
    sms: { ...integer, description: 'Ticket SMS sent or delivered to the number' },
  }),
  LookupResult: object({
    kind: { type: 'string', enum: ['customer', 'call'] },
    phoneNumber: string,
    transactionId: { ...id, nullable: true, description: 'The call found by its payment reference or id; null for a phone number' },
    transaction: refOrNull('Transaction', 'That call as the lists show it; null for a phone number'),
    path: { ...string, example: '/customers/256772000901', description: "The console's page to open" },
  }),
  MonthlyReportRow: object({
    name: { ...string, description: 'The service code' },
    calls: integer,
    processed: integer,
    failed: integer,
    revenue: { type: 'number', description: 'Sum of the amounts of processed calls' },
    refunded: { type: 'number', description: 'Paid back on the month' },
    successRate: { type: 'number', description: 'Processed over all calls, in percent with one decimal' },
  }),
  BulkResolveOutcome: object({ _id: id, outcome: { type: 'string', enum: [...BULK_RESOLVE_OUTCOMES] } }),
  DashboardSummary: object({
    date: day,
    name: { ...nullableString, description: 'The service code, or null for every code the caller reads' },
    total: integer,
    processed: integer,
    failed: integer,
    pending: integer,
    successRate: { type: 'number', description: 'Processed over all calls, in percent with one decimal' },
    revenue: { type: 'number', description: 'Sum of the amounts of processed calls' },
    refunds: {
      ...object({ count: integer, amount: { type: 'number' } }),
      description: "Refunds completed on the day (in the service's zone) of the code's calls, whenever the call was made",
    },
    netRevenue: { type: 'number', description: "Revenue less the day's completed refunds" },
    revenueByLevel: { type: 'array', items: object({ level: string, amount: { type: 'number' }, count: integer }) },
    perHour: { type: 'array', items: object({ hour: integer, total: integer, ...Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s, integer])) }) },
    perNetwork: { type: 'array', items: object({ network: string, total: integer }) },
  }),
} satisfies Record<string, JsonSchema>;

export type ComponentName = keyof typeof COMPONENT_SCHEMAS;

/** COMPONENT_SCHEMAS typed as @fastify/swagger takes them (its OpenAPI types, of openapi-types, are stricter than plain objects). */
export const componentSchemas = COMPONENT_SCHEMAS as unknown as Record<string, OpenAPIV3.SchemaObject>;

/** The success envelope (DESIGN §3) around what `results` holds. */
export const envelope = (results: JsonSchema) => object({ status: { type: 'boolean', enum: [true] }, message: string, results });

/** A page of a list (DESIGN §3), with the legacy aliases the lists also carry. */
export const pageOf = (item: JsonSchema) =>
  object(
    {
      docs: { type: 'array', items: item },
      page: integer,
      limit: integer,
      total: integer,
      pages: integer,
      previous: { ...integer, nullable: true },
      next: { ...integer, nullable: true },
      totalDocs: integer,
      prevPage: { ...integer, nullable: true },
      nextPage: { ...integer, nullable: true },
    },
    ['docs', 'page', 'limit', 'total', 'pages', 'previous', 'next'],
  );

/** What `results` holds in the common cases. */
export const results = {
  entity: (name: ComponentName) => ref(name),
  page: (name: ComponentName) => pageOf(ref(name)),
  list: (name: ComponentName) => ({ type: 'array', items: ref(name) }),
  none: { type: 'object', nullable: true, enum: [null], description: 'Always null' } as JsonSchema,
};

/** An answer that is not JSON (CSV downloads, the USSD screen). */
export const textAnswer = (contentType: string, description: string) => ({ contentType, description });
type TextAnswer = ReturnType<typeof textAnswer>;

export interface RouteDocs {
  /** What the operation does, as /docs lists it. */
  summary?: string;
  /** The yup schema the handler validates the body with. */
  body?: AnyObjectSchema;
  /** The body as a JSON schema, when the handler checks it without yup (nested lists). */
  jsonBody?: JsonSchema;
  /** The yup schema the handler validates the query with; merged with the route's own `querystring`. */
  query?: AnyObjectSchema;
  /** Path parameters the route does not check with a JSON schema of its own. */
  params?: JsonSchema;
  /** The body is also accepted form-encoded (provider callbacks), or only so (`'only'`). */
  form?: boolean | 'only';
  /** A body that is not JSON (a CSV upload): its media type and what it holds. */
  textBody?: TextAnswer;
  /** What `results` of the success envelope holds; null when not given. */
  results?: JsonSchema;
  /** The whole success answer when it is not the envelope: another JSON shape, or text (textAnswer). */
  answer?: JsonSchema | TextAnswer;
  /** Status of the success answer, 200 unless given. */
  status?: 200 | 201;
  /** A created-or-found write (status 201): when the 200 with the same results is answered instead. */
  foundAnswer?: string;
  /**
   * The route reads a service code the caller names (`name`, through access/transaction-scope.ts): one
   * outside the caller's scope is answered 404, as an unknown one is.
   */
  scoped?: boolean;
  /**
   * Error answers beyond the ones a route has by its shape: 400; 401/403 behind sign-in; 401 for a
   * provider callback; 404 with a path id or key, or when `scoped`; 413/415 when it reads a body.
   */
  errors?: Partial<Record<401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 503, string>>;
}

type RouteLike = { method?: string | string[]; url?: string; onRequest?: unknown; preParsing?: unknown };

/** True when the route runs the `authenticate` hook of plugins/auth.ts (found by the function's name). */
export function isSignedIn(route: RouteLike | undefined): boolean {
  const hooks = [route?.onRequest].flat().filter((hook): hook is (...args: unknown[]) => unknown => typeof hook === 'function');
  return hooks.some((hook) => hook.name === 'authenticate');
}

/** True when the route checks a provider's signature or token before reading the body (`checkCaller` of ingestion/callback-auth.ts). */
export function isProviderCallback(route: RouteLike | undefined): boolean {
  const hooks = [route?.preParsing].flat().filter((hook): hook is (...args: unknown[]) => unknown => typeof hook === 'function');
  return hooks.some((hook) => hook.name === 'checkCaller');
}

/** `post /v1/category/:id` → `postV1CategoryById`: unique and stable, for clients generated from the document. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .flatMap((part) => (part.startsWith(':') ? ['by', part.slice(1)] : part.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

const failure = (description: string) => ({ description, ...ref('Failure') });

/** What of a route's shape decides the errors it can answer besides its own. */
interface RouteShape {
  signedIn: boolean;
  providerCallback: boolean;
  hasPathId: boolean;
  /** POST, PUT, PATCH or DELETE: Fastify reads a body sent with it, whether the route takes one or not. */
  readsBody: boolean;
}

/** The answers of an operation: the success answer and each error it can give. */
function answersOf(docs: RouteDocs, shape: RouteShape) {
  const answer = docs.answer ?? envelope(docs.results ?? results.none);
  const success =
    'contentType' in answer
      ? { description: answer.description, content: { [answer.contentType as string]: { schema: { type: 'string' } } } }
      : { ...answer, description: 'Success' };
  return {
    [docs.status ?? 200]: success,
    ...(docs.foundAnswer && !('contentType' in answer) ? { 200: { ...answer, description: docs.foundAnswer } } : {}),
    400: failure('The input is not valid: one error per field, in the words of SPEC'),
    ...(shape.signedIn
      ? { 401: failure('No valid access token: sign in again'), 403: failure('The caller may not do this (role, Afcon-only account or scope)') }
      : {}),
    ...(shape.providerCallback ? { 401: failure('Not from the provider: its signature or token is missing or wrong') } : {}),
    ...(shape.hasPathId ? { 404: failure('No such record, or not one the caller may read') } : {}),
    ...(docs.scoped && !shape.hasPathId ? { 404: failure('No such service code, or not one the caller reads') } : {}),
    // Refused by Fastify before the route runs.
    ...(shape.readsBody ? { 413: failure('The body is larger than the route takes'), 415: failure('The body is of a media type the route does not read') } : {}),
    ...Object.fromEntries(Object.entries(docs.errors ?? {}).map(([code, description]) => [code, failure(description)])),
  };
}

/**
 * The route's `config.swaggerTransform`: its body, query and path parameters from the yup schemas
 * the handler validates with, and its answers. Security is read from the route itself: a route
 * without the `authenticate` hook is documented as open.
 */
export function documented(docs: RouteDocs): SwaggerTransform {
  return ({ schema, url, route }) => {
    const method = [route.method].flat()[0] ?? 'get';
    const signedIn = isSignedIn(route);
    const own = (schema ?? {}) as JsonSchema & { querystring?: JsonSchema; params?: JsonSchema };
    const querystring = docs.query
      ? (() => {
          const derived = jsonSchemaOf(docs.query);
          const ownProperties = (own.querystring?.properties ?? {}) as JsonSchema;
          return { ...own.querystring, ...derived, properties: { ...ownProperties, ...(derived.properties as JsonSchema) } };
        })()
      : own.querystring;
    const params = own.params ?? docs.params;
    return {
      url,
      schema: {
        ...own,
        operationId: operationIdOf(method, url),
        ...(docs.summary ? { summary: docs.summary } : {}),
        ...(querystring ? { querystring } : {}),
        ...(params ? { params } : {}),
        ...(docs.body ? { body: jsonSchemaOf(docs.body), ...(docs.form ? { consumes: [...(docs.form === 'only' ? [] : ['application/json']), 'application/x-www-form-urlencoded'] } : {}) } : {}),
        ...(docs.jsonBody ? { body: docs.jsonBody } : {}),
        ...(docs.textBody ? { body: { type: 'string', description: docs.textBody.description }, consumes: [docs.textBody.contentType] } : {}),
        ...(signedIn ? {} : { security: [] }),
        response: answersOf(docs, {
          signedIn,
          providerCallback: isProviderCallback(route),
          hasPathId: /:(id|key)\b/.test(url),
          readsBody: ['post', 'put', 'patch', 'delete'].includes(method.toLowerCase()),
        }),
      },
    };
  };
}

/** The tags /docs groups operations by. */
export const TAGS = [
  { name: 'health', description: 'Liveness and readiness of the API and its database, and its metrics for Prometheus' },
  { name: 'auth', description: 'Sign in, tokens, password reset and the profile' },
  { name: 'users', description: 'Agent accounts (admins and super-users)' },
  { name: 'categories', description: 'Categories with a price per ticket level' },
  { name: 'service codes', description: 'USSD service codes and the category each sells' },
  { name: 'contents', description: 'Ticket message contents per category level' },
  { name: 'sms', description: 'Single SMS and their delivery reports' },
  { name: 'transactions', description: 'Calls and their payments: lists, search, resolve and export' },
  { name: 'customers', description: "A phone number's page: its figures and calls, and the top bar's lookup" },
  { name: 'reports', description: 'A month per service code, and its CSV' },
  { name: 'dashboard', description: 'The overview of a day' },
  { name: 'live', description: 'Changes as they happen (server-sent events)' },
  { name: 'incidents', description: 'Trouble the server noticed: payments failing, the payment provider silent, ticket SMS failing' },
  { name: 'ingestion', description: 'Callbacks of the mobile network and the payment provider' },
  { name: 'campaigns', description: 'Vote campaigns: descriptors, votes, results and ranking export' },
  { name: 'audit', description: 'The tamper-evident trail of staff actions (admins and super-users)' },
  { name: 'refunds', description: 'Money back for a processed call: requested by support, decided by a manager, settled by the provider' },
  { name: 'reconciliation', description: "The payment provider's statements, matched to the calls (admins and super-users)" },
  { name: 'world cup', description: 'World Cup 2022 campaign lists and rankings' },
  { name: 'afcon 2024', description: 'AFCON 2024 campaign lists and rankings' },
];
