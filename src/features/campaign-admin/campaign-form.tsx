import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ClearIcon from '@mui/icons-material/Clear';
import { FieldArray, Form, Formik, getIn, setIn, useField, useFormikContext, type FormikErrors, type FormikHelpers } from 'formik';
import { readApiError } from '../../api/api-error';
import {
  useCloseCampaignRoundMutation,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
} from '../../api/campaign-admin-api';
import type { Campaign } from '../../api/campaigns-api';
import { useGetServiceCodesTodayQuery } from '../../api/service-codes-api';
import { CardSubtitle } from '../../components/card-subtitle';
import { visuallyHidden } from '../../components/visually-hidden';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SubmitButton } from '../../components/form-dialog';
import { FormSelect, FormSwitch, FormTextField } from '../../components/form-fields';
import { serverMessage, useSubmit } from '../../components/use-submit';
import { MAX_GAMES, MAX_ROUNDS } from '../../domain/campaign-input';
import { formatDateTime } from '../../domain/format';
import { campaignBodyOf, campaignFormOf, campaignFormSchema, emptyCampaignForm, emptyRound, type CampaignFormValues } from './campaign-form-values';
import { UssdPreview } from './ussd-preview';

/** Why a structural field is disabled: the votes cast refer to it. */
export const LOCKED_HELP = 'Locked: the campaign has votes';

const KIND_OPTIONS = [
  { value: 'teams', label: 'Pick one of the teams' },
  { value: 'games', label: 'Pick the winner of a game' },
];

/** The first message under a field or any of its items ('teams' or 'teams[2]'). */
function firstError(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (Array.isArray(error)) return error.map(firstError).find(Boolean);
  return undefined;
}

/** The teams: chips typed in ('type-ahead' over the teams other campaigns use). */
function TeamsField({ suggestions, locked }: { suggestions: string[]; locked: boolean }) {
  const [field, meta, helpers] = useField<string[]>('teams');
  const error = meta.touched ? firstError(meta.error) : undefined;
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      disabled={locked}
      options={suggestions.filter((team) => !field.value.includes(team))}
      value={field.value}
      onChange={(_event, next) => helpers.setValue(next.map((team) => String(team).trim()).filter(Boolean))}
      onBlur={() => helpers.setTouched(true)}
      renderInput={(params) => (
        <TextField
          {...params}
          id="teams"
          label="Teams"
          size="small"
          margin="dense"
          placeholder={field.value.length === 0 ? 'Type a team, then Enter' : undefined}
          error={Boolean(error)}
          helperText={error ?? (locked ? LOCKED_HELP : 'Type each team or contestant and press Enter; the menu lists them in this order')}
        />
      )}
    />
  );
}

/** A games round's games: pairs of two of the campaign's teams. */
function GamesTable({ index, teams, locked }: { index: number; teams: string[]; locked: boolean }) {
  const { values, errors, touched } = useFormikContext<CampaignFormValues>();
  const games = values.rounds[index].games;
  const name = `rounds[${index}].games`;
  const listError = getIn(touched, name) !== undefined || getIn(touched, `rounds[${index}]`) ? getIn(errors, name) : undefined;
  const options = teams.map((team) => ({ value: team, label: team }));
  const label = values.rounds[index].label || `round ${index + 1}`;
  return (
    <FieldArray name={name}>
      {(array) => (
        <Box sx={{ mt: 1 }}>
          {/* Fixed columns: on a phone the two selects share what is left, and the table never pokes out of its card. */}
          <Table size="small" aria-label={`Games of ${label}`} sx={{ tableLayout: 'fixed', '& td, & th': { px: 0.5 } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 28 }}>#</TableCell>
                <TableCell>Team</TableCell>
                <TableCell>Against</TableCell>
                <TableCell sx={{ width: 40 }}>
                  <Box component="span" sx={visuallyHidden}>
                    Remove
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {games.map((_game, g) => (
                <TableRow key={g}>
                  <TableCell>{g + 1}</TableCell>
                  <TableCell>
                    <FormSelect name={`${name}[${g}][0]`} label={`Game ${g + 1} team`} options={options} disabled={locked} margin="none" />
                  </TableCell>
                  <TableCell>
                    <FormSelect name={`${name}[${g}][1]`} label={`Game ${g + 1} against`} options={options} disabled={locked} margin="none" />
                    {typeof getIn(errors, `${name}[${g}]`) === 'string' && (
                      <Typography variant="caption" color="error" component="p" role="alert">
                        {getIn(errors, `${name}[${g}]`)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <IconButton aria-label={`Remove game ${g + 1} of ${label}`} size="small" disabled={locked} onClick={() => array.remove(g)}>
                      <ClearIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {typeof listError === 'string' && (
            <Typography variant="caption" color="error" component="p" sx={{ mt: 0.5 }}>
              {listError}
            </Typography>
          )}
          <Button size="small" startIcon={<AddIcon />} disabled={locked || games.length >= MAX_GAMES} onClick={() => array.push(['0', '0'])} sx={{ mt: 0.5 }}>
            Add game
          </Button>
        </Box>
      )}
    </FieldArray>
  );
}

interface RoundsProps {
  campaign: Campaign | null;
  locked: boolean;
}

/** The rounds: key, label, kind, times, and a games round's games; a live campaign's round can be closed by hand. */
function RoundsFields({ campaign, locked }: RoundsProps) {
  const { values } = useFormikContext<CampaignFormValues>();
  const [closing, setClosing] = useState<{ key: string; label: string } | null>(null);
  const [closeRound, { isLoading }] = useCloseCampaignRoundMutation();
  const submit = useSubmit();
  const stored = (key: string) => campaign?.rounds.find((round) => round.key === key);
  return (
    <FieldArray name="rounds">
      {(array) => (
        <Stack spacing={1.5} sx={{ mt: 2 }}>
          <Typography variant="subtitle1" component="h3">
            Rounds
          </Typography>
          {values.rounds.map((round, index) => {
            const saved = stored(round.key);
            const closedAt = saved?.closedAt ?? round.closedAt;
            const canClose = campaign?.status === 'live' && saved && !closedAt;
            return (
              <Box
                key={index}
                component="fieldset"
                sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, pt: 0.5, pb: 1, m: 0, minWidth: 0 }}
              >
                <Box component="legend" sx={{ px: 0.5, typography: 'body2', fontWeight: 600 }}>
                  Round {index + 1}
                  {closedAt ? ` · closed ${formatDateTime(closedAt)}` : ''}
                </Box>
                <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 1.5 }}>
                  <FormTextField name={`rounds[${index}].key`} label="Round key" disabled={Boolean(saved) && locked} helperText="a-z, 0-9 and -" />
                  <FormTextField name={`rounds[${index}].label`} label="Round label" />
                  <FormSelect
                    name={`rounds[${index}].kind`}
                    label="Kind"
                    options={KIND_OPTIONS}
                    noPlaceholder
                    disabled={Boolean(saved) && locked}
                    helperText={Boolean(saved) && locked ? LOCKED_HELP : undefined}
                  />
                  <Box />
                  <FormTextField name={`rounds[${index}].opensAt`} label="Opens at" type="datetime-local" slotProps={{ inputLabel: { shrink: true } }} helperText="Empty: when published" />
                  <FormTextField name={`rounds[${index}].closesAt`} label="Closes at" type="datetime-local" slotProps={{ inputLabel: { shrink: true } }} helperText="Empty: closed by hand" />
                </Box>
                {round.kind === 'games' && <GamesTable index={index} teams={values.teams} locked={Boolean(saved) && locked} />}
                <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
                  {canClose && (
                    <Button size="small" color="error" variant="outlined" onClick={() => setClosing({ key: round.key, label: round.label })}>
                      Close round
                    </Button>
                  )}
                  <Button
                    size="small"
                    color="inherit"
                    aria-label={`Remove round ${index + 1}`}
                    disabled={values.rounds.length <= 1 || (Boolean(saved) && locked)}
                    onClick={() => array.remove(index)}
                  >
                    Remove round
                  </Button>
                </Stack>
              </Box>
            );
          })}
          <Box>
            <Button size="small" startIcon={<AddIcon />} disabled={values.rounds.length >= MAX_ROUNDS} onClick={() => array.push(emptyRound(values.rounds.length))}>
              Add round
            </Button>
          </Box>
          <ConfirmDialog
            open={Boolean(closing)}
            id="close-round"
            title={`Close the round ${closing?.label ?? ''}?`}
            text="It takes no more votes, even from a voter already choosing in it. Its votes, ranking and results stay."
            confirmLabel="Close round"
            busyLabel="Closing"
            busy={isLoading}
            color="error"
            onClose={() => setClosing(null)}
            onConfirm={async () => {
              if (!closing || !campaign) return;
              const done = await submit(() => closeRound({ key: campaign.key, round: closing.key }).unwrap(), {
                success: `Closed the round ${closing.label}`,
                failure: serverMessage,
              });
              if (done) setClosing(null);
            }}
          />
        </Stack>
      )}
    </FieldArray>
  );
}

/** The preview reads the values as typed. */
function LivePreview() {
  const { values } = useFormikContext<CampaignFormValues>();
  return <UssdPreview values={values} />;
}

export interface CampaignFormProps {
  /** The campaign edited; null to create one. */
  campaign: Campaign | null;
  /** Teams other campaigns use, offered as the teams are typed. */
  teamSuggestions: string[];
  /** After a save: back to the list. */
  onSaved: () => void;
  onCancel?: () => void;
}

/** The server's field errors under their fields ('rounds[1].games[0]' included), whatever status carried them. */
function serverFieldErrors(error: unknown): FormikErrors<CampaignFormValues> | null {
  const info = readApiError(error);
  if (!info.errors.length || info.status === null || info.status >= 500) return null;
  return info.errors.reduce<FormikErrors<CampaignFormValues>>((all, e) => setIn(all, e.field, e.message), {});
}

/**
 * The campaign's create and edit form (formik, the shared campaign rules), with the USSD preview
 * beside it. Structural fields (teams, games, round kinds, the code) are disabled once it has votes.
 */
export function CampaignForm({ campaign, teamSuggestions, onSaved, onCancel }: CampaignFormProps) {
  const editing = campaign !== null;
  const locked = (campaign?.totalVotes ?? 0) > 0;
  const codes = useGetServiceCodesTodayQuery();
  const [create] = useCreateCampaignMutation();
  const [update] = useUpdateCampaignMutation();
  const submit = useSubmit();
  const [notice, setNotice] = useState<string | null>(null);
  const initialValues = useMemo(() => (campaign ? campaignFormOf(campaign) : emptyCampaignForm), [campaign]);
  const codeOptions = useMemo(() => {
    const names = (codes.data ?? []).map((code) => code.name);
    if (campaign && !names.includes(campaign.serviceCode)) names.unshift(campaign.serviceCode);
    return names.map((name) => ({ value: name, label: name }));
  }, [codes.data, campaign]);
  const title = editing ? `Edit ${campaign.name}` : 'Create a campaign';

  const save = async (values: CampaignFormValues, helpers: FormikHelpers<CampaignFormValues>) => {
    setNotice(null);
    const { key, ...fields } = campaignBodyOf(values);
    const done = await submit(
      async () => {
        try {
          return editing ? await update({ key: campaign.key, ...fields }).unwrap() : await create({ key, ...fields }).unwrap();
        } catch (error) {
          const fieldErrors = serverFieldErrors(error);
          if (fieldErrors) helpers.setErrors(fieldErrors);
          else if (readApiError(error).status === 409) setNotice(readApiError(error).message);
          throw error;
        }
      },
      {
        success: editing ? `Saved the campaign ${values.name.trim()}` : `Created the campaign ${values.name.trim()} as a draft`,
        failure: (info) => (info.status === null || info.status >= 500 ? 'Unable to save the campaign' : serverMessage(info)),
      },
    );
    if (done) onSaved();
  };

  return (
    <Formik<CampaignFormValues> initialValues={initialValues} validationSchema={campaignFormSchema} onSubmit={save} enableReinitialize>
      <Box
        component={Form}
        noValidate
        aria-label={title}
        sx={{ display: 'grid', gap: 2, alignItems: 'start', gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 720px) minmax(300px, 380px)' } }}
      >
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              {title}
            </Typography>
            <CardSubtitle>
              {editing
                ? locked
                  ? 'It has votes: names, labels, times, the cap and the price can change; teams, games, round kinds and the code cannot.'
                  : 'Everything can change until its first vote.'
                : 'A new campaign is a draft: publish it from the list when it is ready.'}
            </CardSubtitle>
            {notice && (
              <Alert severity="warning" sx={{ my: 1 }}>
                {notice}
              </Alert>
            )}
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 1.5 }}>
              {editing ? (
                <TextField label="Key" value={campaign.key} disabled size="small" margin="dense" helperText="The key cannot change" />
              ) : (
                <FormTextField name="key" label="Key" placeholder="premier-league-2027" helperText="a-z, 0-9 and -; it names the campaign's pages" />
              )}
              <FormTextField name="name" label="Name" />
              <FormSelect name="serviceCode" label="Service code" options={codeOptions} disabled={locked} helperText={locked ? LOCKED_HELP : undefined} />
              <FormTextField name="votesPerRoundCap" label="Votes per round cap" inputMode="numeric" helperText="Per number and round; empty: no cap" />
              <FormTextField name="votePrice" label="Vote price (UGX)" inputMode="numeric" helperText="Empty: the category's price" />
              <FormTextField name="velocityPerMinute" label="Velocity per minute" inputMode="numeric" helperText="Votes a minute before a number is flagged" />
            </Box>
            <TeamsField suggestions={teamSuggestions} locked={locked} />
            <FormSwitch name="holdSuspicious" label="Hold suspicious votes for review" />
            <RoundsFields campaign={campaign} locked={locked} />
            <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
              <SubmitButton label={editing ? 'Save' : 'Create'} />
              {onCancel && (
                <Button onClick={onCancel} color="inherit">
                  Cancel
                </Button>
              )}
            </Stack>
          </CardContent>
        </Card>
        {/* Beside a long form, the preview stays in view while the rounds below are edited. */}
        <Box sx={{ position: { lg: 'sticky' }, top: { lg: 64 } }}>
          <LivePreview />
        </Box>
      </Box>
    </Formik>
  );
}
