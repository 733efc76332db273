import SendOutlined from '@mui/icons-material/SendOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useResendTicketMutation } from '../../api/transaction-events-api';
import type { Transaction } from '../../domain/entities';
import { MESSAGE_STATUS } from '../../domain/transaction-events';
import { serverMessage, useSubmit } from '../use-submit';

export interface ResendTicketButtonProps {
  transactionId: string;
  /** The call as the server answered it after the resend. */
  onResent?: (transaction: Transaction) => void;
  variant?: 'contained' | 'outlined';
  /** An icon with its name as a tooltip, for a grid row where width is short (1280 px). */
  compact?: boolean;
}

/**
 * 'Resend ticket': one more ticket SMS for a paid call whose SMS failed. Disabled while
 * the request is in flight; the server claims the resend, so a second click never sends twice.
 * The toast is the server's word: 'Ticket sent', or why it was not.
 */
export function ResendTicketButton({ transactionId, onResent, variant = 'outlined', compact = false }: ResendTicketButtonProps) {
  const [resendTicket, { isLoading }] = useResendTicketMutation();
  const submit = useSubmit();
  const onClick = () =>
    submit(
      async () => {
        const answer = await resendTicket(transactionId).unwrap();
        onResent?.(answer.transaction);
        return answer;
      },
      {
        success: ({ message, transaction }) => (transaction.messageStatuses === MESSAGE_STATUS.failed ? { text: message, variant: 'error' } : 'Ticket sent'),
        failure: serverMessage,
      },
    );
  if (compact) {
    return (
      <Tooltip describeChild title={isLoading ? 'Sending…' : 'Resend ticket'}>
        {/* The span keeps the tooltip working while the button is disabled in flight. */}
        <span>
          <IconButton size="small" color="warning" aria-label={isLoading ? 'Sending…' : 'Resend ticket'} aria-busy={isLoading} disabled={isLoading} onClick={onClick}>
            <SendOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button size="small" variant={variant} color="warning" disabled={isLoading} onClick={onClick} sx={{ whiteSpace: 'nowrap' }}>
      {isLoading ? 'Sending…' : 'Resend ticket'}
    </Button>
  );
}
