import * as yup from 'yup';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../audit';
import { isDay } from '../calendar-day';
import { text } from './text';

/** An instant with its offset (`2026-05-01T10:15:00Z`, `…+03:00`): without one it would mean a different moment per reader. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** True for a day `YYYY-MM-DD` (in the service's time zone) or an ISO 8601 instant with an offset. */
export function isAuditBound(value: string): boolean {
  return isDay(value) || (INSTANT.test(value) && !Number.isNaN(Date.parse(value)));
}

const bound = (message: string) =>
  text(40, { tooLong: message })
    .trim()
    .optional()
    .test('bound', message, (value) => value === undefined || value === '' || isAuditBound(value));

/** The filters of `GET /v1/audit` and its CSV export; every one optional. */
export const auditFilterSchema = yup.object({
  /** A user id or a user name (any case). */
  actor: text(100).trim().optional(),
  action: text(50)
    .optional()
    .oneOf([...AUDIT_ACTIONS, undefined, ''], 'Unknown action'),
  entityType: text(30)
    .optional()
    .oneOf([...AUDIT_ENTITY_TYPES, undefined, ''], 'Unknown entity type'),
  entityId: text(100).trim().optional(),
  serviceCode: text(50, { tooLong: 'Invalid service code' }).trim().optional(),
  /** From this instant, or from the start of this day. */
  from: bound('Invalid date: a day YYYY-MM-DD or an ISO 8601 instant'),
  /** Up to this instant, or to the end of this day. */
  to: bound('Invalid date: a day YYYY-MM-DD or an ISO 8601 instant'),
});
export type AuditFilterInput = yup.InferType<typeof auditFilterSchema>;
