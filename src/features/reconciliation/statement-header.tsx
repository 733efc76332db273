import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatCount, formatDateTime, plural } from '../../domain/format';
import type { ReconciliationStatement } from '../../domain/reconciliation';

const statementName = (statement: ReconciliationStatement) => statement.fileName ?? 'Statement without a name';

/** The days a statement covers, as a person says them: '1 May 2026 – 31 May 2026'. */
const periodText = (statement: ReconciliationStatement) => {
  const [from, to] = [formatDateTime(statement.periodFrom), formatDateTime(statement.periodTo)].map((text) => text.split(' ').slice(0, 3).join(' '));
  return from === to ? from : `${from} – ${to}`;
};

/** Its exception rows still to act on, all kinds together. */
const openRows = (statement: ReconciliationStatement) => Object.values(statement.open ?? {}).reduce((sum, n) => sum + n, 0);

/** The second line of a choice: period, uploader and counts. */
const choiceFacts = (statement: ReconciliationStatement) =>
  [periodText(statement), `by ${statement.uploadedBy?.userName ?? 'a former user'}`, plural(statement.lines, 'line'), `${formatCount(openRows(statement))} to act on`].join(' · ');

/** Typing finds a statement by its file name, period, uploader or upload day. */
const filterStatements = createFilterOptions<ReconciliationStatement>({
  stringify: (statement) => `${statementName(statement)} ${choiceFacts(statement)} ${formatDateTime(statement.createdAt)}`,
});

/** Lines, period and author of a statement in one line. */
function statementFacts(statement: ReconciliationStatement) {
  const by = statement.uploadedBy ? ` by ${statement.uploadedBy.userName}` : '';
  const declared = statement.periodDeclared ? ' (period declared at upload)' : '';
  return `${plural(statement.lines, 'line')} from ${formatDateTime(statement.periodFrom)} to ${formatDateTime(statement.periodTo)}${declared} · uploaded${by} on ${formatDateTime(statement.createdAt)}`;
}

export interface StatementHeaderProps {
  /** The statements the picker offers: the standing ones, or the voided ones. */
  statements: ReconciliationStatement[];
  voidedShown: boolean;
  onVoidedShown: (shown: boolean) => void;
  statementId: string;
  onStatement: (id: string) => void;
  /** The chosen statement once loaded. */
  statement: ReconciliationStatement | undefined;
  onVoid: (statement: ReconciliationStatement) => void;
}

/** The statement picker, what the chosen statement covers, and its void: the button, or who voided it and why. */
export function StatementHeader({ statements, voidedShown, onVoidedShown, statementId, onStatement, statement, onVoid }: StatementHeaderProps) {
  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
        {statements.length > 0 && (
          <Autocomplete<ReconciliationStatement, false, true>
            options={statements}
            // The list may not have the newest upload yet: the field waits for it rather than show a value it lacks.
            value={statements.find((each) => each._id === statementId) ?? (null as unknown as ReconciliationStatement)}
            onChange={(_event, next) => onStatement(next._id)}
            disableClearable
            autoHighlight
            noOptionsText="No statement matches"
            getOptionLabel={statementName}
            getOptionKey={(each) => each._id}
            isOptionEqualToValue={(option, current) => option._id === current._id}
            filterOptions={filterStatements}
            renderOption={({ key, ...props }, each) => (
              <Box component="li" key={key} {...props}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {statementName(each)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {choiceFacts(each)}
                  </Typography>
                </Box>
              </Box>
            )}
            renderInput={(params) => <TextField {...params} size="small" label={voidedShown ? 'Voided statement' : 'Statement'} placeholder="Search by file, period or uploader" />}
            slotProps={{ popper: { placement: 'bottom-start', sx: { minWidth: { xs: 280, sm: 420 } } } }}
            sx={{ width: { xs: '100%', md: 360 }, flexShrink: 0 }}
          />
        )}
        <FormControlLabel control={<Switch checked={voidedShown} onChange={(event) => onVoidedShown(event.target.checked)} />} label="Voided statements" sx={{ flexShrink: 0 }} />
        {statement && (
          <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
            {statementFacts(statement)}
          </Typography>
        )}
        {statement && !statement.voidedAt && (
          <Button variant="outlined" color="error" onClick={() => onVoid(statement)} sx={{ flexShrink: 0 }}>
            Void statement
          </Button>
        )}
      </Stack>
      {statement?.voidedAt && (
        <Alert severity="warning" sx={{ mb: 2 }} aria-label="Voided statement">
          Voided{statement.voidedBy ? ` by ${statement.voidedBy.userName}` : ''} on {formatDateTime(statement.voidedAt)}: “{statement.voidReason}” It no longer counts as the
          provider&apos;s word on any payment; what was done on its rows stays.
        </Alert>
      )}
    </>
  );
}
