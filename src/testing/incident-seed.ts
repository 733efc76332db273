import type { Db } from '../../server/src/db/client';
import { incidents } from '../../server/src/db/schema';
import { CLOSED_TEST_INCIDENTS, OPEN_TEST_INCIDENTS } from './test-incidents';

/** The web tests' incidents, written with the API's own schema (jest global setup only). */
export async function seedTestIncidents(db: Db): Promise<void> {
  await db.insert(incidents).values(
    [...OPEN_TEST_INCIDENTS, ...CLOSED_TEST_INCIDENTS].map(({ acknowledgedBy, acknowledgedAt, ...incident }) => ({
      ...incident,
      acknowledgedByName: acknowledgedBy ?? null,
      acknowledgedAt: acknowledgedAt ? new Date(acknowledgedAt) : null,
      openedAt: new Date(incident.openedAt),
      closedAt: incident.closedAt ? new Date(incident.closedAt) : null,
    })),
  );
}
