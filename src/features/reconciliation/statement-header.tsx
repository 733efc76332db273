import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatDateTime, plural } from '../../domain/format';
import type { ReconciliationStatement } from '../../domain/reconciliation';

const statementName = (statement: ReconciliationStatement) => `${statement.fileName ?? 'Statement'} · uploaded ${formatDateTime(statement.createdAt)}`;

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
          <TextField
            select
            size="small"
            label={voidedShown ? 'Voided statement' : 'Statement'}
            // The list may not have the newest upload yet: the field waits for it rather than show a value it lacks.
            value={statements.some((each) => each._id === statementId) ? statementId : ''}
            onChange={(event) => onStatement(event.target.value)}
            sx={{ minWidth: { md: 360 } }}
          >
            {statements.map((each) => (
              <MenuItem key={each._id} value={each._id}>
                {statementName(each)}
              </MenuItem>
            ))}
          </TextField>
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
