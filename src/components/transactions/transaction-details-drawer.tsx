import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { roundLabel } from '../../domain/campaign-rounds';
import { votePick } from '../../domain/campaigns';
import { categoryLevelLabel } from '../../domain/category-levels';
import type { Transaction } from '../../domain/entities';
import { formatDateTime, formatMoney } from '../../domain/format';
import { categoryName } from '../../domain/transaction-csv';
import { canResendTicket } from '../../domain/transaction-events';
import { isManager } from '../../domain/roles';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { AuditHistory } from '../audit-history';
import { DefinitionList } from '../definition-list';
import { mayRequestRefund, RefundButton } from './refund-dialog';
import { ResendTicketButton } from './resend-ticket-button';
import { StatusChip } from './transaction-cells';
import { TransactionTimeline } from './transaction-timeline';

export interface TransactionDetailsDrawerProps {
  /** The call shown; null keeps the drawer closed. */
  transaction: Transaction | null;
  onClose: () => void;
  /** The signed-in person may resend tickets (the button shows only where canResendTicket). */
  canResend: boolean;
  onResent: (transaction: Transaction) => void;
}

/** The call's facts, empty ones left out. */
function summaryOf(t: Transaction): [string, string][] {
  const vote = votePick(t);
  // A vote: the pick first, then its game and campaign.
  const subject: [string, string][] = vote
    ? [
        ['Team', vote.pick],
        ['Game', vote.game],
        ['Campaign', [vote.campaign, vote.round && roundLabel(vote.round)].filter(Boolean).join(' · ')],
      ]
    : [['Category', [categoryName(t), t.categoryLevel && categoryLevelLabel(t.categoryLevel)].filter(Boolean).join(' · ')]];
  const rows: [string, string][] = [
    ['Service code', t.name],
    ['From', t.phoneNumber],
    ['Network', t.network],
    ...subject,
    ['Amount', t.amount ? `UGX ${formatMoney(t.amount)}` : ''],
    ['Call time', formatDateTime(t.createdAt)],
    ['Response time', t.callbackTime ? formatDateTime(t.callbackTime) : ''],
    ['Ticket SMS', t.messageStatuses ?? ''],
    ['Payment reference', t.paymentRef ?? ''],
    ['Failure reason', t.failureReason ?? ''],
    ['Refunded', t.refundedAmount ? `UGX ${formatMoney(t.refundedAmount)}` : ''],
  ];
  return rows.filter(([, value]) => value !== '');
}

/**
 * 'Details': a call's summary and its timeline, so support can tell a customer what
 * happened without reading logs. Right side; the whole width of a phone.
 */
export function TransactionDetailsDrawer({ transaction, onClose, canResend, onResent }: TransactionDetailsDrawerProps) {
  // Who acted on the call, from the audit trail, for those who may read it.
  const role = useAppSelector(selectSessionUser)?.role;
  const readsAudit = isManager(role);
  return (
    // Above the app bar, which sits over the menu drawer on wide screens.
    <Drawer
      anchor="right"
      open={transaction !== null}
      onClose={onClose}
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 440 } } } }}
    >
      {transaction && (
        <Box role="region" aria-label="Call details" sx={{ p: 2 }}>
          <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center' }}>
            <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
              Call details
            </Typography>
            <StatusChip transaction={transaction} />
            <IconButton aria-label="Close details" onClick={onClose} edge="end">
              <CloseIcon />
            </IconButton>
          </Stack>
          <DefinitionList items={summaryOf(transaction).map(([label, value]) => ({ label, value }))} />
          {((canResend && canResendTicket(transaction)) || mayRequestRefund(transaction, role)) && (
            <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
              {canResend && canResendTicket(transaction) && <ResendTicketButton key={transaction._id} transactionId={transaction._id} onResent={onResent} variant="contained" />}
              {mayRequestRefund(transaction, role) && <RefundButton key={`refund-${transaction._id}`} transaction={transaction} />}
            </Stack>
          )}
          <Divider sx={{ my: 2 }} />
          <Typography variant="subtitle1" component="h2" sx={{ mb: 1.5 }}>
            Timeline
          </Typography>
          <TransactionTimeline transactionId={transaction._id} />
          {readsAudit && (
            <>
              <Divider sx={{ my: 2 }} />
              <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
                Audit entries
              </Typography>
              <AuditHistory entityType="transaction" entityId={transaction._id} />
            </>
          )}
        </Box>
      )}
    </Drawer>
  );
}
