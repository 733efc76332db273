import crypto from 'node:crypto';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { SECRET_CHANGED, type AuditAction, type AuditChange, type AuditEntityType } from '../../../src/domain/audit';
import type { DbOrTx } from '../db/client';
import { auditRepository } from '../repositories/audit-repository';
import { canonicalJson, chainHash, type AuditContent } from './audit-chain';

/** Who did it: a staff member, the name tried by an unknown or wrong sign-in, or nobody (the system). */
export interface AuditActor {
  id: string | null;
  userName: string | null;
  role: string | null;
}

export interface AuditWho {
  actor: AuditActor;
  ip: string | null;
}

/** The signed-in caller of a request and the address it came from. */
export function auditWho(request: FastifyRequest): AuditWho {
  const user = request.user;
  return { actor: { id: user?.id ?? null, userName: user?.userName ?? null, role: user?.role ?? null }, ip: request.ip ?? null };
}

/** A record's audited fields in the product's words; nested objects become dotted fields ('price.vip'). */
export type AuditRecord = { [field: string]: unknown };

export interface AuditInput extends AuditWho {
  action: AuditAction;
  /** The record acted on, with a label a person reads ('Category Premier League Tips'). */
  entity: { type: AuditEntityType; id: string | null; label: string };
  serviceCode?: string | null;
  /** The record before and after the write (null before a create); one change per field that differs. */
  before?: AuditRecord | null;
  after?: AuditRecord | null;
  /** Facts that are no field of the record (an export's filter and rows), after the field changes. */
  changes?: AuditChange[];
  reason?: string | null;
}

/** A record as the trail sees it: which it is, in words, and its audited fields in the product's words (audited-records.ts). */
export interface Audited {
  entity: AuditInput['entity'];
  serviceCode?: string | null;
  record: AuditRecord;
}

/** The entry of a write of one record from its state before (none for a create) and after; null when an edit changed nothing. */
export function changeEntry(who: AuditWho, action: AuditAction, change: { before?: Audited | null; after: Audited; reason?: string | null }): AuditInput | null {
  const { before, after, reason } = change;
  if (before && fieldChanges(before.record, after.record).length === 0) return null;
  return { ...who, action, entity: after.entity, serviceCode: after.serviceCode ?? before?.serviceCode, before: before?.record ?? null, after: after.record, reason };
}

/** Records a write of one record (`changeEntry`) in the write's transaction. */
export function recordChange(tx: DbOrTx, who: AuditWho, action: AuditAction, change: { before?: Audited | null; after: Audited; reason?: string | null }) {
  return recordAudit(tx, changeEntry(who, action, change) ?? []);
}

/** A field holding a password, token, secret or hash: recorded as changed, never its value. */
const SECRET_FIELD = /password|token|secret|hash/i;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function flatten(record: AuditRecord | null | undefined, prefix = '', into = new Map<string, unknown>()) {
  for (const [key, value] of Object.entries(record ?? {})) {
    if (isPlainObject(value)) flatten(value, `${prefix}${key}.`, into);
    else into.set(`${prefix}${key}`, value instanceof Date ? value.toISOString() : (value ?? null));
  }
  return into;
}

/** One change per field whose value differs between the two records (compared as canonical JSON). */
export function fieldChanges(before: AuditRecord | null | undefined, after: AuditRecord | null | undefined): AuditChange[] {
  const was = flatten(before);
  const is = flatten(after);
  const changes: AuditChange[] = [];
  for (const field of new Set([...is.keys(), ...was.keys()])) {
    const [b, a] = [was.get(field) ?? null, is.get(field) ?? null];
    if (canonicalJson(b) === canonicalJson(a)) continue;
    if (SECRET_FIELD.test(field)) changes.push({ field, before: b === null ? null : SECRET_CHANGED, after: a === null ? null : SECRET_CHANGED });
    else changes.push({ field, before: b, after: a });
  }
  return changes;
}

function contentOf(input: AuditInput, at: Date): AuditContent {
  return {
    id: crypto.randomUUID(),
    at: at.toISOString(),
    actor: { id: input.actor.id, userName: input.actor.userName, role: input.actor.role },
    ip: input.ip,
    action: input.action,
    entity: { type: input.entity.type, id: input.entity.id, label: input.entity.label },
    serviceCode: input.serviceCode ?? null,
    changes: [...fieldChanges(input.before, input.after), ...(input.changes ?? [])],
    reason: input.reason || null,
  };
}

/**
 * Records entries in the audit trail, in `tx`: the transaction of the write they describe, so an
 * entry exists exactly when its change committed. Waits for the chain's head (one writer at a time
 * across every API process), chains each entry after it and appends them in one statement. Called
 * with the database itself (an export, a sign-in), it runs in a transaction of its own.
 */
export async function recordAudit(tx: DbOrTx, input: AuditInput | AuditInput[]): Promise<void> {
  const inputs = [input].flat();
  if (inputs.length === 0) return;
  if (!(tx instanceof PgTransaction)) {
    await tx.transaction((own) => recordAudit(own, inputs));
    return;
  }
  const repo = auditRepository(tx);
  const head = await repo.lockHead();
  const at = new Date();
  let previous = head.hash;
  const rows = inputs.map((entry) => {
    const content = contentOf(entry, at);
    previous = chainHash(previous, content);
    return {
      id: content.id,
      at,
      actorId: content.actor.id,
      actorUserName: content.actor.userName,
      actorRole: content.actor.role,
      ip: content.ip,
      action: content.action,
      entityType: content.entity.type,
      entityId: content.entity.id,
      entityLabel: content.entity.label,
      serviceCode: content.serviceCode,
      changes: content.changes,
      reason: content.reason,
      hash: previous,
    };
  });
  await repo.append(head, rows);
}
