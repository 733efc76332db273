import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutlinedIcon from '@mui/icons-material/CheckCircleOutlined';
import { useGetIncidentsQuery } from '../../api/incidents-api';
import { ListSpinner } from '../../components/list-spinner';
import type { Incident } from '../../domain/incidents';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { AcknowledgeIncidentDialog } from './acknowledge-dialog';
import { ClosedIncidentRow, OpenIncidentCard } from './incident-items';

/** Open incidents are few (one per kind and code at most): they come in one request. */
const OPEN_LIMIT = 100;
const HISTORY_PAGE_SIZE = 20;

/** A section's heading with its count beside it. */
function SectionHeading({ id, children, count }: { id: string; children: ReactNode; count?: number }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', mb: 1.5 }}>
      <Typography variant="h6" component="h2" id={id}>
        {children}
      </Typography>
      {count !== undefined && (
        <Typography variant="body2" color="text.secondary">
          {count}
        </Typography>
      )}
    </Stack>
  );
}

function ErrorLine() {
  return <Typography color="error">Unexpected error</Typography>;
}

function OpenIncidents() {
  const open = useGetIncidentsQuery({ page: 1, limit: OPEN_LIMIT, state: 'open' });
  const [acknowledging, setAcknowledging] = useState<Incident | null>(null);
  // The Afcon-only account reads incidents but works neither them nor the Failed list.
  const works = !useAppSelector(selectSessionUser)?.isAfcon;
  const docs = open.data?.docs ?? [];
  return (
    <Box component="section" aria-labelledby="open-incidents" sx={{ mb: 4 }}>
      <SectionHeading id="open-incidents" count={open.data?.total}>
        Open
      </SectionHeading>
      {open.isError && <ErrorLine />}
      {open.isLoading && <ListSpinner sx={{ py: 3 }} />}
      {open.data && docs.length === 0 && (
        <Paper variant="outlined" sx={{ p: 2, display: 'flex', gap: 1.5, alignItems: 'center' }}>
          <CheckCircleOutlinedIcon color="success" aria-hidden />
          <div>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
              No open incidents
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Payments, the payment provider and ticket SMS look normal. Anything unusual shows here and in the top bar.
            </Typography>
          </div>
        </Paper>
      )}
      {docs.length > 0 && (
        <Stack spacing={1.5}>
          {docs.map((incident) => (
            <OpenIncidentCard key={incident._id} incident={incident} onAcknowledge={works ? setAcknowledging : undefined} />
          ))}
        </Stack>
      )}
      <AcknowledgeIncidentDialog incident={acknowledging} onClose={() => setAcknowledging(null)} />
    </Box>
  );
}

function IncidentHistory() {
  const [page, setPage] = useState(1);
  const closed = useGetIncidentsQuery({ page, limit: HISTORY_PAGE_SIZE, state: 'closed' });
  const withCalls = !useAppSelector(selectSessionUser)?.isAfcon;
  const docs = closed.data?.docs ?? [];
  const pages = closed.data?.pages ?? 1;
  return (
    <Box component="section" aria-labelledby="incident-history">
      <SectionHeading id="incident-history" count={closed.data?.total}>
        History
      </SectionHeading>
      {closed.isError && <ErrorLine />}
      {closed.isLoading && <ListSpinner sx={{ py: 3 }} />}
      {closed.data && docs.length === 0 && <Typography color="text.secondary">No closed incidents yet.</Typography>}
      {docs.length > 0 && (
        <Paper variant="outlined" sx={{ px: 2, opacity: closed.isFetching ? 0.6 : 1 }} aria-busy={closed.isFetching}>
          <Box component="ol" aria-label="Closed incidents, newest first" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {docs.map((incident) => (
              <ClosedIncidentRow key={incident._id} incident={incident} withCalls={withCalls} />
            ))}
          </Box>
        </Paper>
      )}
      {pages > 1 && (
        <Pagination aria-label="History pages" count={pages} page={page} onChange={(_event, next) => setPage(next)} siblingCount={0} sx={{ display: 'flex', justifyContent: 'center', mt: 2 }} />
      )}
    </Box>
  );
}

/**
 * Incidents: trouble the server noticed by itself, open ones first and prominent, then
 * the closed ones, newest first. The API scopes them: a manager reads every one, an agent its codes'.
 */
export default function IncidentsScreen() {
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Incidents
      </Typography>
      <OpenIncidents />
      <IncidentHistory />
    </>
  );
}
