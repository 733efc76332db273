import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import SmsFailedIcon from '@mui/icons-material/SmsFailed';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { formatDateTime } from '../../domain/format';
import { describeIncidentFigures, formatIncidentDuration, INCIDENT_KIND_LABELS, WHOLE_SERVICE, type Incident, type IncidentKind } from '../../domain/incidents';

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

/** One open incident: what is wrong, where, since when, and the figures that opened it, in the error colour. */
export function OpenIncidentCard({ incident }: { incident: Incident }) {
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
      </Box>
    </Paper>
  );
}

/** One closed incident of the history: kind, code, when it opened and closed, how long, and its figures. */
export function ClosedIncidentRow({ incident }: { incident: Incident }) {
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
      </Box>
    </Box>
  );
}
