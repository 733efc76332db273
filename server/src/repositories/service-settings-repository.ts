import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { serviceSettings } from '../db/schema';
import { rowsOf } from './sql-fragments';

export function serviceSettingsRepository(db: DbOrTx) {
  return {
    async timeZone(): Promise<string | undefined> {
      const [row] = await db.select({ timeZone: serviceSettings.timeZone }).from(serviceSettings).limit(1);
      return row?.timeZone;
    },

    /**
     * Makes `zone` the zone the stats triggers count days in; when it changes, the daily counts are
     * rebuilt by the new zone's days (migration 0004). Answers whether it changed.
     */
    async useTimeZone(zone: string): Promise<boolean> {
      const [{ changed }] = await rowsOf<{ changed: boolean }>(db, sql`select set_service_time_zone(${zone}) as changed`);
      return changed;
    },
  };
}
