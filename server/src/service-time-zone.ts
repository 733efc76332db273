import { setServiceTimeZone } from '../../src/domain/format';
import type { Db } from './db/client';
import { serviceSettingsRepository } from './repositories/service-settings-repository';

/**
 * Makes `zone` (TZ_NAME) the service's one time zone: for the days and display code of src/domain
 * in this process, and for the database's daily counts. Run at start, before any call is counted.
 */
export async function applyServiceTimeZone(db: Db, zone: string): Promise<void> {
  setServiceTimeZone(zone);
  await serviceSettingsRepository(db).useTimeZone(zone);
}

/** index.html with the service's zone in its `service-time-zone` meta, which the SPA reads at boot. */
export function withServiceTimeZone(indexHtml: string, zone: string): string {
  const meta = `<meta name="service-time-zone" content="${zone}" />`;
  const existing = /<meta name="service-time-zone"[^>]*>/;
  return existing.test(indexHtml) ? indexHtml.replace(existing, meta) : indexHtml.replace('<head>', `<head>\n    ${meta}`);
}
