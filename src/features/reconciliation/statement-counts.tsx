import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { formatMoney } from '../../domain/format';
import { RECONCILIATION_KIND_LABELS, RECONCILIATION_KINDS, type ReconciliationKind, type ReconciliationStatement } from '../../domain/reconciliation';

/** Each kind's colour: agreement green, money owed to a customer amber, money missing (or gone back unasked) red. */
const KIND_COLOR: Record<ReconciliationKind, 'success' | 'warning' | 'error' | 'info'> = {
  matched: 'success',
  paidNoTicket: 'warning',
  ticketNoMoney: 'error',
  amountMismatch: 'warning',
  currencyMismatch: 'warning',
  unknownReference: 'info',
  refundUnknown: 'error',
  refundMismatch: 'warning',
  refundMissing: 'error',
};

/** Exception rows still to act on; none on a voided statement, whose rows are no longer acted on (an older answer may lack a kind). */
const openOf = (statement: ReconciliationStatement | undefined, kind: ReconciliationKind) =>
  kind !== 'matched' && !statement?.voidedAt ? (statement?.open[kind] ?? 0) : undefined;

/**
 * A statement's counts per kind as cards; each card shows its kind's rows below (a toggle), and
 * each exception kind says how many rows still wait.
 */
export function StatementCounts({ statement, kind, onKind }: { statement: ReconciliationStatement | undefined; kind: ReconciliationKind; onKind: (kind: ReconciliationKind) => void }) {
  return (
    <Box role="group" aria-label="Rows per kind" sx={{ display: 'grid', gap: 1.5, mb: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(5, minmax(0, 1fr))', xl: 'repeat(9, minmax(0, 1fr))' } }}>
      {RECONCILIATION_KINDS.map((each) => {
        const selected = each === kind;
        const open = openOf(statement, each);
        return (
          <ButtonBase
            key={each}
            aria-pressed={selected}
            onClick={() => onKind(each)}
            sx={(theme) => {
              const main = theme.palette[KIND_COLOR[each]].main;
              return {
                display: 'block',
                textAlign: 'left',
                p: 1.5,
                borderRadius: 1,
                border: 1,
                borderColor: selected ? main : 'divider',
                borderLeft: `4px solid ${main}`,
                bgcolor: selected ? alpha(main, theme.palette.mode === 'dark' ? 0.16 : 0.08) : 'background.paper',
                '&:hover': { bgcolor: alpha(main, 0.12) },
                '&.Mui-focusVisible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
              };
            }}
          >
            <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
              {RECONCILIATION_KIND_LABELS[each]}
            </Typography>
            <Typography variant="h5" component="span" sx={{ display: 'block' }}>
              {formatMoney(statement?.counts[each] ?? 0)}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block', minHeight: '1.66em' }}>
              {open === undefined ? '' : open === 0 ? 'All acted on' : `${formatMoney(open)} to act on`}
            </Typography>
          </ButtonBase>
        );
      })}
    </Box>
  );
}
