import type { AuditVerification } from '../../../src/domain/audit';
import type { Db } from '../db/client';
import { auditRepository, type AuditRow } from '../repositories/audit-repository';
import { chainHash, GENESIS_HASH, type AuditContent } from './audit-chain';

/** Entries read per query while verifying. */
const VERIFY_CHUNK = 1000;

/** What a stored entry's hash covers, read back from its row. */
export function storedContent(row: AuditRow): AuditContent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorId, userName: row.actorUserName, role: row.actorRole },
    ip: row.ip,
    action: row.action,
    entity: { type: row.entityType, id: row.entityId, label: row.entityLabel },
    serviceCode: row.serviceCode,
    changes: row.changes,
    reason: row.reason,
  };
}

/**
 * Walks the whole chain from its first entry to the head as it was when the walk began (entries
 * appended meanwhile wait for the next run) and recomputes every hash. The first entry whose hash
 * differs was altered, or follows one that was removed; entries missing after the last one show
 * as a head that does not match (`firstBrokenId` null).
 */
export async function verifyAuditTrail(db: Db): Promise<AuditVerification> {
  const repo = auditRepository(db);
  const head = await repo.head();
  let previous = GENESIS_HASH;
  let entries = 0;
  let firstBrokenId: string | null = null;
  for await (const rows of repo.chain(head.seq, VERIFY_CHUNK)) {
    for (const row of rows) {
      entries += 1;
      if (firstBrokenId === null && chainHash(previous, storedContent(row)) !== row.hash) firstBrokenId = row.id;
      previous = row.hash;
    }
  }
  const whole = firstBrokenId === null && entries === head.seq && previous === head.hash;
  return { ok: whole, entries, firstBrokenId };
}
