import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import SmsFailedIcon from '@mui/icons-material/SmsFailed';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { formatDateTime } from '../../domain/format';
import { describeIncidentFigures, formatIncidentDuration, incidentCallsWindow, INCIDENT_KIND_LABELS, WHOLE_SERVICE, type Incident, type IncidentKind } from '../../domain/incidents';

const KIND_ICONS: Record<IncidentKind, ReactNode> = {
  'failure-rate': <TrendingUpIcon />,
  'provider-silence': <CloudOffIcon />,
  'sms-failure': <SmsFailedIcon />,
};

const figuresOf = (incident: Incident) => describeIncidentFigures(incident, (iso) => formatDateTime(iso));

/** The code an incident concerns, or the whole service (the payment provider, the SMS gateway). */
function ScopeChip({ incident }: { incident: Incident }) {
  return <Chip size="small" variant="outlined" label={incident.serviceCode ?? WHOLE_SERVICE} sx={{ fontWeight: 600 }} />;
}

/** The Failed list narrowed to what an incident counted: its code (every code for a service-wide one) and window. */
export function incidentCallsPath(incident: Incident): string {
  const { name, since, until } = incidentCallsWindow(incident);
  return `/failed?${new URLSearchParams({ name, since, ...(until ? { until } : {}) })}`;
}

/** Who took an incident on, when, and their note; nothing until someone did. */
function Acknowledgement({ incident }: { incident: Incident }) {
  if (!incident.acknowledgedAt) return null;
  return (
    <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
      <Box component="span" sx={{ fontWeight: 600 }}>
        Acknowledged by {incident.acknowledgedBy ?? 'a former user'}
      </Box>{' '}
      on {formatDateTime(incident.acknowledgedAt)}
      {incident.note ? `: “${incident.note}”` : ''}
    </Typography>
  );
}

/** The link to the Failed calls an incident counted. */
function CallsLink({ incident }: { incident: Incident }) {
  return (
    <Link component={RouterLink} to={incidentCallsPath(incident)} variant="body2">
      See its failed calls
    </Link>
  );
}

/** One open incident: what is wrong, where, since when, and the figures that opened it, in the error colour. */
export function OpenIncidentCard({ incident, onAcknowledge }: { incident: Incident; onAcknowledge?: (incident: Incident) => void }) {
  const title = INCIDENT_KIND_LABELS[incident.kind];
  return (
    <Paper
      component="article"
      variant="outlined"
      aria-label={`${title}, ${incident.serviceCode ?? WHOLE_SERVICE}`}
      sx={{ p: 2, borderColor: 'error.main', borderLeftWidth: 6, display: 'flex', gap: 2, alignItems: 'flex-start' }}
    >
      <Box aria-hidden sx={{ color: 'error.main', display: 'flex', pt: 0.25 }}>
        {KIND_ICONS[incident.kind]}
      </Box>
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 0.5 }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
            {title}
          </Typography>
          <ScopeChip incident={incident} />
        </Stack>
        <Typography variant="body1">{figuresOf(incident)}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Open since {formatDateTime(incident.openedAt)}
        </Typography>
        <Acknowledgement incident={incident} />
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
          {onAcknowledge && <CallsLink incident={incident} />}
          {onAcknowledge && !incident.acknowledgedAt && (
            <Button size="small" variant="outlined" onClick={() => onAcknowledge(incident)}>
              Acknowledge
            </Button>
          )}
        </Stack>
      </Box>
    </Paper>
  );
}

/** One closed incident of the history: kind, code, when it opened and closed, how long, and its figures. */
export function ClosedIncidentRow({ incident, withCalls }: { incident: Incident; withCalls: boolean }) {
  const closedAt = incident.closedAt ?? incident.openedAt;
  return (
    <Box component="li" sx={{ py: 1.5, display: 'flex', gap: 2, alignItems: 'flex-start', '& + &': { borderTop: 1, borderColor: 'divider' } }}>
      <Box aria-hidden sx={{ color: 'text.secondary', display: 'flex', pt: 0.25 }}>
        {KIND_ICONS[incident.kind]}
      </Box>
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="subtitle2" component="h3">
            {INCIDENT_KIND_LABELS[incident.kind]}
          </Typography>
          <ScopeChip incident={incident} />
          <Typography variant="body2" color="text.secondary">
            lasted {formatIncidentDuration(incident.openedAt, closedAt)}
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {figuresOf(incident)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Opened {formatDateTime(incident.openedAt)} · closed {formatDateTime(closedAt)}
        </Typography>
        <Acknowledgement incident={incident} />
        {withCalls && <CallsLink incident={incident} />}
      </Box>
    </Box>
  );
}
