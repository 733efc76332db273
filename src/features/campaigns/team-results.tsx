import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { HorizontalBarChart } from '../../components/horizontal-bar-chart';
import { visuallyHidden } from '../../components/visually-hidden';
import type { CampaignResults } from '../../domain/schemas/campaigns';


function Figure({ label, value, hint }: { label: string; value: number; hint: string }) {
  return (
    <Box role="group" aria-label={label} sx={{ px: 2, py: 1, border: 1, borderColor: 'divider', borderRadius: 1, minWidth: 150 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
        {value.toLocaleString('en-US')}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {hint}
      </Typography>
    </Box>
  );
}

/** DESIGN §5: votes per team for the ranking's round, total votes beside distinct voters so the two are not confused. */
export function TeamResults({ results, isError }: { results?: CampaignResults; isError: boolean }) {
  const teams = results?.teams ?? [];
  return (
    <Card component="section" aria-label="Team results" variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1, alignItems: { sm: 'center' } }}>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            Team results
          </Typography>
          <Stack direction="row" spacing={2}>
            <Figure label="Total votes" value={results?.totalVotes ?? 0} hint="processed votes cast" />
            <Figure label="Distinct voters" value={results?.distinctVoters ?? 0} hint="phone numbers that voted" />
          </Stack>
        </Stack>
        {isError && <Typography color="error">Unexpected error</Typography>}
        {!isError && results && teams.length === 0 && <Typography color="text.secondary">No votes yet</Typography>}
        {teams.length > 0 && (
          // Most voted first; a long list scrolls inside the card, which takes the focus so a keyboard scrolls it (axe).
          <Box role="region" aria-label="Votes per team chart" tabIndex={0} sx={{ maxHeight: 440, overflowY: 'auto' }}>
            <HorizontalBarChart labels={teams.map((t) => t.teamName)} values={teams.map((t) => t.votes)} seriesLabel="Votes" color="#2e7d32" hideLegend />
          </Box>
        )}
        {/* Read by screen readers and tests in place of the drawn bars. */}
        <Box component="table" sx={visuallyHidden}>
          <caption>Votes per team</caption>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Votes</th>
            </tr>
          </thead>
          <tbody>
            {teams.map((t) => (
              <tr key={t.teamName}>
                <th scope="row">{t.teamName}</th>
                <td>{t.votes}</td>
              </tr>
            ))}
          </tbody>
        </Box>
      </CardContent>
    </Card>
  );
}
