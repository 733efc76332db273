import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TwoFactorVerifyRequest } from '../../api/login-request';

export interface TwoFactorStepProps {
  /** Sends the code or recovery code; answers the field's error when it was wrong, or null. */
  onSubmit: (factor: Omit<TwoFactorVerifyRequest, 'challenge'>) => Promise<string | null>;
  /** Back to the user name and password. */
  onBack: () => void;
}

const CODE = /^\d{6}$/;

/**
 * The sign-in's second step for an account with two-factor sign-in: the six-digit code from the
 * authenticator app, or else one of the recovery codes. Plain React state, as the sign-in form
 * (the first visit's download budget).
 */
export function TwoFactorStep({ onSubmit, onBack }: TwoFactorStepProps) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = value.trim();
    if (!useRecovery && !CODE.test(typed)) return setError('Enter the 6-digit code from your authenticator app');
    if (useRecovery && !typed) return setError('Enter one of your recovery codes');
    setSubmitting(true);
    try {
      setError(await onSubmit(useRecovery ? { recoveryCode: typed } : { code: typed }));
    } finally {
      setSubmitting(false);
    }
  };
  const switchKind = () => {
    setUseRecovery((current) => !current);
    setValue('');
    setError(null);
  };

  return (
    <form noValidate aria-label="Two-factor sign-in" onSubmit={submit}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {useRecovery ? 'Enter one of the recovery codes you saved when you turned two-factor sign-in on. Each works once.' : 'Enter the 6-digit code your authenticator app shows for Dialdesk.'}
      </Typography>
      <TextField
        key={useRecovery ? 'recovery' : 'code'}
        id={useRecovery ? 'recoveryCode' : 'code'}
        name={useRecovery ? 'recoveryCode' : 'code'}
        label={useRecovery ? 'Recovery code' : 'Code'}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={Boolean(error)}
        helperText={error ?? undefined}
        autoComplete={useRecovery ? 'off' : 'one-time-code'}
        slotProps={{ htmlInput: useRecovery ? { maxLength: 40 } : { inputMode: 'numeric', maxLength: 6, pattern: '[0-9]*' } }}
        autoFocus
        fullWidth
        size="small"
        margin="dense"
      />
      <Box sx={{ display: 'grid', gap: 1, mt: 1 }}>
        <Button type="submit" variant="contained" disabled={submitting} fullWidth startIcon={submitting ? <CircularProgress size={16} color="inherit" aria-label="Checking" /> : undefined}>
          Verify
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
          <Button size="small" onClick={switchKind}>
            {useRecovery ? 'Use the 6-digit code' : 'Use a recovery code'}
          </Button>
          <Button size="small" onClick={onBack}>
            Back to sign in
          </Button>
        </Box>
      </Box>
    </form>
  );
}
