/**
 * Why support marked a failed call resolved: a reason from a short list and an optional
 * note, stored on the call, on its 'resolved' timeline event and in the CSV export.
 */
export const RESOLVE_REASONS = ['reached-helped', 'refunded', 'could-not-reach', 'duplicate'] as const;

export type ResolveReason = (typeof RESOLVE_REASONS)[number];

export const RESOLVE_REASON_LABELS: Record<ResolveReason, string> = {
  'reached-helped': 'Reached and helped',
  refunded: 'Refunded',
  'could-not-reach': 'Could not reach',
  duplicate: 'Duplicate',
};

/** A note is one line of at most this many characters. */
export const RESOLVE_NOTE_MAX = 500;

/** The most calls one bulk resolve takes. */
export const BULK_RESOLVE_MAX = 200;

/** What a bulk resolve did with each id: `refused` for a call that is not failed, unknown, or outside the caller's scope. */
/** How long after resolving a call its resolver may take it back (the Undo on the resolve's toast). */
export const RESOLVE_UNDO_SECONDS = 60;

export const BULK_RESOLVE_OUTCOMES = ['resolved', 'already-resolved', 'refused'] as const;
export type BulkResolveOutcome = (typeof BULK_RESOLVE_OUTCOMES)[number];

/** A reason's label; '' for none, the stored key for one this version does not know. */
export function resolveReasonLabel(reason: string | null | undefined): string {
  if (!reason) return '';
  return (RESOLVE_REASON_LABELS as Record<string, string>)[reason] ?? reason;
}
