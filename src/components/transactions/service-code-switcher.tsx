import { useMemo } from 'react';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGetServiceCodesTodayQuery } from '../../api/service-codes-api';
import { ALL_SERVICE_CODES, type ServiceCodeToday } from '../../domain/service-codes';
import { formatCount, formatShare } from '../../domain/format';

/** A choice of the switcher: a code with today's figures, or every code ('' name) with their sum. */
interface CodeChoice {
  name: string;
  category: string | null;
  /** Unknown for a code the list does not have (yet): the stored choice before the list arrives. */
  calls?: number;
  failedShare?: number;
}

/** A failed share worth the reader's eye: the incident rule's default margin over a quiet week (README 'Incidents'). */
const HIGH_FAILED_SHARE = 0.2;


const labelOf = (choice: CodeChoice) => choice.name || ALL_SERVICE_CODES;

/** Typing matches a code or its category's name anywhere ('*217*1' finds *217*1#, *217*10#…; 'sport' its category's codes). */
const filterChoices = createFilterOptions<CodeChoice>({ stringify: (choice) => `${labelOf(choice)} ${choice.category ?? ''}` });

function choicesOf(codes: ServiceCodeToday[] | undefined, chosen: string): CodeChoice[] {
  const list = codes ?? [];
  const calls = list.reduce((sum, code) => sum + code.calls, 0);
  const failed = list.reduce((sum, code) => sum + code.failed, 0);
  const all: CodeChoice = { name: '', category: codes ? `${formatCount(list.length)} codes` : null, ...(codes ? { calls, failedShare: calls > 0 ? failed / calls : 0 } : {}) };
  // The server answers them in natural order (*217*1#, *217*2#, … *217*25#).
  const each = list.map((code): CodeChoice => ({ name: code.name, category: code.category?.name ?? null, calls: code.calls, failedShare: code.failedShare }));
  // The chosen code stays selectable even before the list arrives, or when it is not in it.
  const missing = chosen && !each.some((choice) => choice.name === chosen) ? [{ name: chosen, category: null }] : [];
  return [all, ...missing, ...each];
}

/** One choice in the list: code and category on the left, today's calls and failed share on the right. */
function ChoiceLine({ choice }: { choice: CodeChoice }) {
  const high = (choice.failedShare ?? 0) >= HIGH_FAILED_SHARE && (choice.calls ?? 0) > 0;
  return (
    <Box sx={{ display: 'flex', width: '100%', gap: 2, alignItems: 'center' }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {labelOf(choice)}
        </Typography>
        {choice.category && (
          <Typography variant="caption" component="div" color="text.secondary" noWrap>
            {choice.category}
          </Typography>
        )}
      </Box>
      {choice.calls !== undefined && (
        <Box sx={{ textAlign: 'right', flexShrink: 0 }}>
          <Typography variant="body2">
            {formatCount(choice.calls)} {choice.calls === 1 ? 'call' : 'calls'} today
          </Typography>
          <Typography variant="caption" component="div" color={high ? 'error' : 'text.secondary'} sx={high ? { fontWeight: 600 } : undefined}>
            {formatShare(choice.failedShare ?? 0)} failed
          </Typography>
        </Box>
      )}
    </Box>
  );
}

export interface ServiceCodeSwitcherProps {
  /** The chosen code; '' for every code the caller reads. */
  value: string;
  onChange: (name: string) => void;
}

/**
 * The service-code switcher: the codes the caller reads (a manager every one, an agent its own,
 * as the server scopes them) in natural order with their category and today's calls and failed
 * share, filtered as one types. The live stream keeps the figures moving (it invalidates
 * 'ServiceCodeToday'); opening the list asks for them again too.
 */
export function ServiceCodeSwitcher({ value, onChange }: ServiceCodeSwitcherProps) {
  const today = useGetServiceCodesTodayQuery();
  const choices = useMemo(() => choicesOf(today.data, value), [today.data, value]);
  // The value is the chosen code alone, one object until another code is chosen: MUI writes the chosen
  // label back into a focused field whenever the value changes identity, which wiped what a person was
  // typing each time today's figures came again (opening the list asks for them; the live stream too).
  const chosen = useMemo<CodeChoice>(() => ({ name: value, category: null }), [value]);
  return (
    <Autocomplete<CodeChoice, false, true>
      options={choices}
      value={chosen}
      onChange={(_event, next) => onChange(next.name)}
      onOpen={() => {
        if (!today.isUninitialized && !today.isFetching) void today.refetch();
      }}
      disableClearable
      autoHighlight
      loading={today.isLoading}
      loadingText="Loading service codes…"
      noOptionsText="No service code matches"
      getOptionLabel={labelOf}
      getOptionKey={(choice) => choice.name || ALL_SERVICE_CODES}
      isOptionEqualToValue={(option, current) => option.name === current.name}
      filterOptions={filterChoices}
      renderOption={({ key, ...props }, choice) => (
        <Box component="li" key={key} {...props}>
          <ChoiceLine choice={choice} />
        </Box>
      )}
      renderInput={(params) => <TextField {...params} size="small" label="Service code" />}
      slotProps={{ popper: { placement: 'bottom-start', sx: { minWidth: 320 } } }}
      sx={{ width: { xs: '100%', sm: 240 } }}
    />
  );
}
