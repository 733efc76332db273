/**
 * SPEC §2's '( total )' after a list's heading, kept on one line: a narrow screen breaks before
 * it, never inside it (not '( / 179 )' at 412 px). One element, so the count arriving
 * moves nothing after it.
 */
export function TotalCount({ total }: { total: number }) {
  return <span style={{ whiteSpace: 'nowrap' }}>{`( ${total} )`}</span>;
}
