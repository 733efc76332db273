import { categoryLevelLabel, CATEGORY_LEVELS } from './category-levels';
import { formatCount, formatDateTime, formatMoney } from './format';
import { resolveReasonLabel } from './resolution';
import { roleLabel } from './roles';
import { csvLine } from './transaction-csv';

/**
 * The audit trail: who did what to which record, field by field, as the API answers it
 * (`GET /v1/audit`). Entity types and action names are a contract other parts rely on.
 */
export const AUDIT_ENTITY_TYPES = ['user', 'category', 'service-code', 'content', 'sms', 'transaction', 'statement', 'refund', 'campaign', 'incident', 'session', 'export'] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

export const AUDIT_ACTIONS = [
  'category.create',
  'category.update',
  'service-code.create',
  'service-code.update',
  'content.create',
  'content.update',
  'user.create',
  'user.update',
  'user.disable',
  'user.enable',
  'user.password-change',
  'user.password-reset',
  'user.2fa-enable',
  'user.2fa-reset',
  'user.2fa-disable',
  'sms.send',
  'transaction.resolve',
  'transaction.resolve-undo',
  'transaction.resend-ticket',
  'vote.release',
  'vote.reject',
  'export.transactions',
  'export.ranking',
  'export.audit',
  'export.statement',
  'export.report',
  'statement.upload',
  'statement.issue-ticket',
  'statement.review',
  'statement.void',
  'session.sign-in',
  'session.sign-in-failed',
  'refund.request',
  'refund.approve',
  'refund.reject',
  'refund.submit',
  'refund.complete',
  'refund.fail',
  'campaign.create',
  'campaign.update',
  'campaign.publish',
  'campaign.close',
  'campaign.round-close',
  'incident.acknowledge',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One field that changed; a secret's before and after are SECRET_CHANGED, never its value. */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** What a password, token or secret is recorded as when it changed. */
export const SECRET_CHANGED = '[changed]';

export interface AuditActorView {
  _id: string | null;
  userName: string | null;
  role: string | null;
}

export interface AuditEntry {
  _id: string;
  at: string;
  /** Who: every field null for the system; a failed sign-in carries only the name tried. */
  actor: AuditActorView;
  ip: string | null;
  action: AuditAction;
  entity: { type: AuditEntityType; id: string | null; label: string };
  serviceCode: string | null;
  changes: AuditChange[];
  reason: string | null;
  hash: string;
}

/** `GET /v1/audit/verify`: whether every entry's hash still chains to the one before. */
export interface AuditVerification {
  ok: boolean;
  entries: number;
  /** The first entry whose hash no longer matches (altered, or an entry before it removed); null when ok or only the newest entries are missing. */
  firstBrokenId: string | null;
}

const ACTION_LABELS: Record<AuditAction, string> = {
  'category.create': 'Category created',
  'category.update': 'Category changed',
  'service-code.create': 'Service code registered',
  'service-code.update': 'Service code changed',
  'content.create': 'Content created',
  'content.update': 'Content changed',
  'user.create': 'User created',
  'user.update': 'User changed',
  'user.disable': 'User disabled',
  'user.enable': 'User enabled',
  'user.password-change': 'Password changed',
  'user.password-reset': 'Password reset by link',
  'user.2fa-enable': 'Two-factor sign-in enabled',
  'user.2fa-reset': 'Two-factor sign-in reset',
  'user.2fa-disable': 'Two-factor sign-in turned off',
  'sms.send': 'SMS sent',
  'transaction.resolve': 'Transaction resolved',
  'transaction.resolve-undo': 'Resolve undone',
  'transaction.resend-ticket': 'Ticket sent again',
  'vote.release': 'Held votes released',
  'vote.reject': 'Held votes rejected',
  'export.transactions': 'Transactions exported',
  'export.ranking': 'Ranking exported',
  'export.audit': 'Audit trail exported',
  'export.statement': 'Statement rows exported',
  'export.report': 'Report exported',
  'statement.upload': 'Statement uploaded',
  'statement.issue-ticket': 'Ticket issued from a statement',
  'statement.review': 'Statement row reviewed',
  'statement.void': 'Statement voided',
  'session.sign-in': 'Signed in',
  'session.sign-in-failed': 'Sign-in failed',
  'refund.request': 'Refund requested',
  'refund.approve': 'Refund approved',
  'refund.reject': 'Refund rejected',
  'refund.submit': 'Refund sent to the provider',
  'refund.complete': 'Refund completed',
  'refund.fail': 'Refund failed',
  'campaign.create': 'Campaign created',
  'campaign.update': 'Campaign changed',
  'campaign.publish': 'Campaign published',
  'campaign.close': 'Campaign closed',
  'campaign.round-close': 'Campaign round closed',
  'incident.acknowledge': 'Incident acknowledged',
};

export const auditActionLabel = (action: string): string => ACTION_LABELS[action as AuditAction] ?? action;

const ENTITY_LABELS: Record<AuditEntityType, string> = {
  user: 'User',
  category: 'Category',
  'service-code': 'Service code',
  content: 'Content',
  sms: 'SMS',
  transaction: 'Transaction',
  statement: 'Statement',
  refund: 'Refund',
  campaign: 'Campaign',
  incident: 'Incident',
  session: 'Session',
  export: 'Export',
};

export const auditEntityTypeLabel = (type: string): string => ENTITY_LABELS[type as AuditEntityType] ?? type;

/** A record's label as people read it: 'Category Premier League Tips'. */
export const auditEntityLabel = (type: AuditEntityType, name: string): string => `${ENTITY_LABELS[type]} ${name}`;

const PRICE_FIELD = /^price\.(.+)$/;
const MONEY_FIELDS = new Set(['amount']);
const FIELD_LABELS: Record<string, string> = {
  userName: 'User name',
  isAfcon: 'Afcon only',
  categoryLevel: 'Level',
  phoneNumber: 'Phone number',
  isResolved: 'Resolved',
  resolvedReason: 'Reason',
  resolvedNote: 'Note',
  serviceCode: 'Service code',
  ticketSms: 'Ticket SMS',
  rows: 'Rows',
  active: 'Active',
  password: 'Password',
};

/** A field's label: 'price.vip' → 'VIP price', 'userName' → 'User name'. */
export function auditFieldLabel(field: string): string {
  const price = PRICE_FIELD.exec(field);
  if (price) return `${categoryLevelLabel(price[1])} price`;
  if (FIELD_LABELS[field]) return FIELD_LABELS[field];
  const last = field.split('.').pop() ?? field;
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value as a person reads it in this field: money with separators, levels and reasons by their labels. */
export function auditValueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return PRICE_FIELD.test(field) || MONEY_FIELDS.has(field) ? formatMoney(value) : formatCount(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value !== 'string') return JSON.stringify(value);
  if (field === 'categoryLevel' && (CATEGORY_LEVELS as readonly string[]).includes(value)) return categoryLevelLabel(value);
  if (field === 'resolvedReason') return resolveReasonLabel(value);
  if (field === 'role') return roleLabel(value);
  if (/(^|\.)(from|to|at)$/.test(field) && !Number.isNaN(Date.parse(value)) && value.includes('T')) return formatDateTime(value);
  return value;
}

/** One change in words: 'VIP price 5,000 → 6,000'; a secret as 'Password changed'. */
export function auditChangeText(change: AuditChange): string {
  const label = auditFieldLabel(change.field);
  if (change.after === SECRET_CHANGED) return `${label} changed`;
  if (change.before === null || change.before === undefined) return `${label} ${auditValueText(change.field, change.after)}`;
  return `${label} ${auditValueText(change.field, change.before)} → ${auditValueText(change.field, change.after)}`;
}

/** Who, as a person reads it: 'admin (Admin)', the name tried for a failed sign-in, 'System' otherwise. */
export function auditActorText(actor: AuditActorView | null | undefined): string {
  if (!actor?.userName) return 'System';
  return actor.role ? `${actor.userName} (${roleLabel(actor.role)})` : actor.userName;
}

/** The CSV export's columns: the instant as stored (ISO 8601, UTC), the changes in words. */
const CSV_COLUMNS: readonly { header: string; value: (entry: AuditEntry) => string }[] = [
  { header: 'At', value: (e) => e.at },
  { header: 'Actor', value: (e) => e.actor.userName ?? '' },
  { header: 'Actor id', value: (e) => e.actor._id ?? '' },
  { header: 'Role', value: (e) => e.actor.role ?? '' },
  { header: 'Address', value: (e) => e.ip ?? '' },
  { header: 'Action', value: (e) => e.action },
  { header: 'Entity type', value: (e) => e.entity.type },
  { header: 'Entity id', value: (e) => e.entity.id ?? '' },
  { header: 'Entity', value: (e) => e.entity.label },
  { header: 'Service code', value: (e) => e.serviceCode ?? '' },
  { header: 'Changes', value: (e) => e.changes.map(auditChangeText).join('; ') },
  { header: 'Reason', value: (e) => e.reason ?? '' },
  { header: 'Hash', value: (e) => e.hash },
];

export const AUDIT_CSV_HEADER = csvLine(CSV_COLUMNS.map((c) => c.header));

export const auditCsvLine = (entry: AuditEntry): string => csvLine(CSV_COLUMNS.map((c) => c.value(entry)));
