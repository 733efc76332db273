import { useId, useState } from 'react';
import { useStore } from 'react-redux';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { uploadStatement, type DeclaredPeriod } from '../../api/reconciliation-api';
import { DateField } from '../../components/date-field';
import { serverMessage, useSubmit } from '../../components/use-submit';
import type { FieldError } from '../../domain/entities';
import { formatMoney, todayInServiceZone } from '../../domain/format';
import { DECLARED_PERIOD_MAX_DAYS, STATEMENT_COLUMNS, STATEMENT_MAX_MB, STATEMENT_MAX_SPAN_DAYS } from '../../domain/reconciliation';
import { useAppDispatch } from '../../state/hooks';

type Stage = { step: 'idle' } | { step: 'sending'; fraction: number } | { step: 'reading' };

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${formatMoney(Math.ceil(bytes / 1024))} kB`);

/**
 * The statement upload (DESIGN §7): choose a CSV, send it with its progress, then the server reads
 * and sorts it. A refused file lists each bad line and column as the server named them.
 */
export function StatementUpload({ onUploaded }: { onUploaded: (statementId: string) => void }) {
  const store = useStore();
  const dispatch = useAppDispatch();
  const submit = useSubmit();
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [problems, setProblems] = useState<FieldError[]>([]);
  // A statement whose lines span more than a month is taken when its days are declared.
  const [declared, setDeclared] = useState(false);
  const [period, setPeriod] = useState<DeclaredPeriod>(() => ({ from: `${todayInServiceZone().slice(0, 8)}01`, to: todayInServiceZone() }));
  const inputId = useId();
  const busy = stage.step !== 'idle';

  const upload = async () => {
    if (!file) return;
    setProblems([]);
    setStage({ step: 'sending', fraction: 0 });
    const send = async () => {
      const done = await uploadStatement(
        { dispatch, getState: store.getState },
        file,
        file.name,
        (fraction) => setStage(fraction >= 1 ? { step: 'reading' } : { step: 'sending', fraction }),
        declared ? period : undefined,
      );
      setFile(null);
      onUploaded(done.id);
      return done;
    };
    await submit(send, {
      success: (done) => ({ text: done.message, variant: done.created ? 'success' : 'info' }),
      failure: (info) => {
        setProblems(info.errors.length > 0 ? info.errors : [{ field: 'file', message: info.message || 'The statement could not be uploaded' }]);
        return serverMessage(info);
      },
    });
    setStage({ step: 'idle' });
  };

  const percent = stage.step === 'sending' ? Math.round(stage.fraction * 100) : 100;
  return (
    <Paper variant="outlined" component="section" aria-label="Upload a statement" sx={{ p: 2, mb: 2 }}>
      <Typography variant="subtitle1" component="h2">
        Upload the provider&apos;s statement
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        A CSV file with the columns {STATEMENT_COLUMNS.join(', ')}, and optionally type (PAYMENT or REFUND; other columns are ignored), at most {STATEMENT_MAX_MB} MB. The same file twice is counted once.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <Button component="label" htmlFor={inputId} variant="outlined" startIcon={<UploadFileIcon />} disabled={busy} sx={{ flexShrink: 0 }}>
          Choose file
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            hidden
            aria-label="Statement file"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setProblems([]);
              event.target.value = '';
            }}
          />
        </Button>
        <Typography variant="body2" sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }} aria-live="polite">
          {file ? `${file.name} (${sizeText(file.size)})` : 'No file chosen'}
        </Typography>
        <Button variant="contained" onClick={upload} disabled={!file || busy} sx={{ flexShrink: 0 }}>
          Upload
        </Button>
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 1.5, alignItems: { sm: 'center' } }}>
        <FormControlLabel
          control={<Checkbox checked={declared} onChange={(event) => setDeclared(event.target.checked)} disabled={busy} />}
          label={`Declare the period (needed when the lines span more than ${STATEMENT_MAX_SPAN_DAYS} days; at most ${DECLARED_PERIOD_MAX_DAYS})`}
        />
        {declared && (
          <>
            <DateField label="Period from" value={period.from} onChange={(from) => setPeriod((was) => ({ ...was, from }))} />
            <DateField label="Period to" value={period.to} onChange={(to) => setPeriod((was) => ({ ...was, to }))} />
          </>
        )}
      </Stack>
      {busy && (
        <Box sx={{ mt: 1.5 }}>
          <LinearProgress
            variant={stage.step === 'sending' ? 'determinate' : 'indeterminate'}
            value={percent}
            aria-label={stage.step === 'sending' ? 'Upload progress' : 'Reading the statement'}
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} role="status">
            {stage.step === 'sending' ? `Uploading… ${percent}%` : 'Reading and matching the statement…'}
          </Typography>
        </Box>
      )}
      {problems.length > 0 && (
        <Alert severity="error" sx={{ mt: 1.5 }} aria-label="Problems in the file">
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            The statement was not imported; nothing was changed.
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {problems.map((problem, i) => (
              <li key={i}>{problem.message}</li>
            ))}
          </Box>
        </Alert>
      )}
    </Paper>
  );
}
