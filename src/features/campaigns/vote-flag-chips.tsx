import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { VoteFlag } from '../../domain/vote-integrity';

/** Each flag in words, and what earned it (README 'Vote integrity'). */
const FLAG_TEXT: Record<VoteFlag, { label: string; title: string }> = {
  velocity: { label: 'Velocity', title: "More votes in a minute than the campaign's velocity threshold" },
  'near-cap': { label: 'Near cap', title: "At least 80% of the round's vote cap" },
  burst: { label: 'Burst', title: 'One of many new numbers of one network voting the same pick within a minute' },
};

/** A voter's anomaly: the peak votes in any minute, then a chip per flag (none: the peak alone). */
export function VoteAnomaly({ peakPerMinute, flags }: { peakPerMinute?: number; flags?: readonly VoteFlag[] }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', py: 0.5 }}>
      <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap', mr: 0.5 }}>
        {`${peakPerMinute ?? 0}/min`}
      </Typography>
      {(flags ?? []).map((flag) => (
        <Chip key={flag} size="small" color="warning" variant="outlined" label={FLAG_TEXT[flag].label} title={FLAG_TEXT[flag].title} />
      ))}
    </Stack>
  );
}
