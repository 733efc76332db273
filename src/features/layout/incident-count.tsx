import { Link as RouterLink } from 'react-router-dom';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { OPEN_INCIDENTS_POLL_MS, useGetOpenIncidentCountQuery } from '../../api/incidents-api';

/** '2 open incidents', 'No open incidents': the button's name says the count, not just the icon. */
export function openIncidentsLabel(open: number): string {
  if (open === 0) return 'No open incidents';
  return `${open} open incident${open === 1 ? '' : 's'}`;
}

/**
 * The top bar's open-incident count, a link to /incidents: a warning sign with its number in red
 * while something is open; at 0 a calm check in the bar's own colour, nothing to alarm. The live
 * stream refreshes it; the poll covers a stream that is down.
 */
export function IncidentCount() {
  const { data: open = 0 } = useGetOpenIncidentCountQuery(undefined, { pollingInterval: OPEN_INCIDENTS_POLL_MS, skipPollingIfUnfocused: true });
  const label = openIncidentsLabel(open);
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" component={RouterLink} to="/incidents" aria-label={label} sx={open === 0 ? { opacity: 0.85 } : undefined}>
        {/* No badge at 0: a hidden '0' would still be text the name 'No open incidents' does not say (axe: label-content-name-mismatch). */}
        {open > 0 ? (
          <Badge badgeContent={open} color="error" max={99} overlap="circular">
            <ReportProblemOutlinedIcon />
          </Badge>
        ) : (
          <TaskAltIcon />
        )}
      </IconButton>
    </Tooltip>
  );
}
