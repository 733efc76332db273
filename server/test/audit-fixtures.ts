import { sql } from 'drizzle-orm';
import type { AuditEntry } from '../../src/domain/audit';
import type { TestWorld } from './helpers';

/** The entries `GET /v1/audit?<query>` answers (newest first), read as an admin. */
export async function auditEntries(world: TestWorld, headers: Record<string, string>, query: Record<string, string>): Promise<AuditEntry[]> {
  const response = await world.app.inject({ method: 'GET', url: `/v1/audit?${new URLSearchParams({ limit: '100', ...query })}`, headers });
  if (response.statusCode !== 200) throw new Error(`GET /v1/audit answered ${response.statusCode}: ${response.body}`);
  return response.json().results.docs;
}

/** The whole audit table as text, to look for what must never be in it (passwords, their hashes). */
export async function auditTableText(world: TestWorld): Promise<string> {
  const { rows } = (await world.db.execute(sql`select * from audit_log`)) as unknown as { rows: unknown[] };
  return JSON.stringify(rows);
}
