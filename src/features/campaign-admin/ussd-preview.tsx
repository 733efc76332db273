import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DEFAULT_VOTE_PRICE } from '../../domain/campaign-rounds';
import { gsm7Length } from '../../domain/sms-segments';
import { ussdMenu, type CampaignService } from '../../domain/ussd-menu';
import { USSD_MAX_LENGTH } from '../../domain/ussd-text';
import type { CampaignFormValues } from './campaign-form-values';

export interface PreviewScreen {
  /** What the screen is, for staff: 'Rounds', 'Week 2 · page 2'. */
  title: string;
  /** The reply as the handset shows it, without the 'CON '/'END ' the network reads. */
  text: string;
  /** GSM-7 units of the whole reply, 'CON ' included, against USSD_MAX_LENGTH. */
  length: number;
}

/** The form's campaign as the USSD menu reads it, with every round not closed by hand on offer. */
export function previewService(values: CampaignFormValues): CampaignService {
  const teams = values.teams.filter((team) => team.trim() !== '');
  const price = Number(values.votePrice);
  return {
    kind: 'campaign',
    name: values.name.trim() || values.key || 'Campaign',
    closed: false,
    rounds: values.rounds
      .filter((round) => !round.closedAt)
      .map((round) => ({
        key: round.key,
        label: round.label.trim() || round.key || '?',
        kind: round.kind,
        games: round.games.filter(([a, b]) => a && b && a !== '0' && b !== '0'),
        open: true,
      })),
    teams,
    // The screens previewed show no price; the confirm screen, which does, is not among them.
    price: Number.isInteger(price) && price > 0 ? price : DEFAULT_VOTE_PRICE,
    cap: null,
    votesCast: {},
  };
}

/** Every page of the screen the answers `path` lead to, following '98. More'. */
function pagesAt(service: CampaignService, path: string[], title: string): PreviewScreen[] {
  const screens: PreviewScreen[] = [];
  const answers = [...path];
  for (let page = 1; page <= 10; page += 1) {
    const reply = ussdMenu(service, answers.join('*')).reply;
    screens.push({ title: page === 1 ? title : `${title} · page ${page}`, text: reply.replace(/^(CON|END) /, ''), length: gsm7Length(reply) });
    if (!reply.startsWith('CON ') || !/\n98\. More(\n|$)/.test(reply)) break;
    answers.push('98');
  }
  return screens;
}

/**
 * The screens a voter meets, drawn by the server's own menu (src/domain/ussd-menu.ts): the rounds
 * (skipped when one is on offer), then each round's teams or games.
 */
export function previewScreens(service: CampaignService): PreviewScreen[] {
  if (service.rounds.length <= 1) return pagesAt(service, [], service.rounds[0] ? service.rounds[0].label : 'Menu');
  return [
    ...pagesAt(service, [], 'Rounds'),
    ...service.rounds.flatMap((round, index) => pagesAt(service, [String(index + 1)], round.label)),
  ];
}

/** Beside the form (below it on a narrow screen): each screen as a handset shows it, with its length against the limit. */
export function UssdPreview({ values }: { values: CampaignFormValues }) {
  const screens = previewScreens(previewService(values));
  return (
    <Card variant="outlined" component="section" aria-labelledby="ussd-preview-title">
      <CardContent>
        <Typography variant="h6" component="h2" id="ussd-preview-title">
          USSD preview
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          What a voter sees with every round open, in {USSD_MAX_LENGTH} GSM-7 characters a screen.
        </Typography>
        <Stack spacing={1.5}>
          {screens.map((screen, index) => {
            const over = screen.length > USSD_MAX_LENGTH;
            return (
              <Box key={`${index}-${screen.title}`} component="figure" sx={{ m: 0 }} aria-label={`Screen ${screen.title}`}>
                <Box
                  component="figcaption"
                  sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, typography: 'caption', color: 'text.secondary', mb: 0.5 }}
                >
                  <span>{screen.title}</span>
                  <Box component="span" sx={{ color: over ? 'error.main' : 'text.secondary', fontWeight: over ? 600 : undefined }}>
                    {screen.length}/{USSD_MAX_LENGTH}
                  </Box>
                </Box>
                <Box
                  component="pre"
                  sx={{
                    m: 0,
                    p: 1.25,
                    borderRadius: 1,
                    bgcolor: 'action.hover',
                    border: 1,
                    borderColor: 'divider',
                    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                    fontSize: 13,
                    lineHeight: 1.45,
                    whiteSpace: 'pre-wrap',
                    wordBreak: 'break-word',
                  }}
                >
                  {screen.text}
                </Box>
              </Box>
            );
          })}
        </Stack>
      </CardContent>
    </Card>
  );
}
