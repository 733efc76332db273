import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useGetTransactionEventsQuery } from '../../api/transaction-events-api';
import { formatDateTimeSeconds } from '../../domain/format';
import { TRANSACTION_EVENT_LABELS, type TransactionEvent } from '../../domain/transaction-events';
import { eventActorText, eventDetailLines, handsetScreen } from '../../domain/transaction-timeline';
import { DefinitionList } from '../definition-list';

/** A USSD reply as the customer's handset showed it, with what they had typed. */
function HandsetReply({ detail }: { detail: TransactionEvent['detail'] }) {
  const screen = handsetScreen(detail);
  return (
    <Box sx={{ mt: 0.5 }}>
      <Typography variant="body2" color="text.secondary">
        {screen.input === null ? 'Dialled the service code' : `Entered ${screen.input}`}
      </Typography>
      <Box
        component="pre"
        aria-label="Handset screen"
        sx={{
          m: 0,
          mt: 0.5,
          p: 1.25,
          maxWidth: 280,
          borderRadius: 1.5,
          border: '3px solid',
          borderColor: 'grey.800',
          bgcolor: '#e8f0dc',
          color: '#1b2a12',
          fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
          fontSize: 13,
          lineHeight: 1.35,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        {screen.text || ' '}
      </Box>
      {screen.ended && (
        <Typography variant="caption" color="text.secondary">
          Session ended
        </Typography>
      )}
    </Box>
  );
}

function TimelineEntry({ event, last }: { event: TransactionEvent; last: boolean }) {
  const lines = eventDetailLines(event);
  return (
    <Box component="li" sx={{ display: 'flex', gap: 1.5 }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', pt: 0.75 }} aria-hidden>
        <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'primary.main', flexShrink: 0 }} />
        {!last && <Box sx={{ width: 2, flexGrow: 1, bgcolor: 'divider', mt: 0.5 }} />}
      </Box>
      <Box sx={{ pb: last ? 0 : 2, minWidth: 0, flexGrow: 1 }}>
        <Typography variant="subtitle2" component="h3">
          {TRANSACTION_EVENT_LABELS[event.kind] ?? event.kind}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          {formatDateTimeSeconds(event.at)} · {eventActorText(event)}
        </Typography>
        {event.kind === 'ussd_hop' && <HandsetReply detail={event.detail} />}
        {lines.length > 0 && (
          <DefinitionList items={lines} labelWidth="132px" dense />
        )}
      </Box>
    </Box>
  );
}

/** A call's events, oldest first (DESIGN §6): what happened, when, and who or what caused it. */
export function TransactionTimeline({ transactionId }: { transactionId: string }) {
  const { data: events, isLoading, isError } = useGetTransactionEventsQuery(transactionId);
  if (isLoading) return <CircularProgress size={24} aria-label="Loading the timeline" />;
  if (isError || !events) return <Alert severity="error">The timeline could not be loaded</Alert>;
  if (events.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No events recorded for this call yet.
      </Typography>
    );
  }
  return (
    <Box component="ol" aria-label="Timeline" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {events.map((event, index) => (
        <TimelineEntry key={event._id} event={event} last={index === events.length - 1} />
      ))}
    </Box>
  );
}
