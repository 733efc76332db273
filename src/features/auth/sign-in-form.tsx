import { useState, type FormEvent, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { LoginRequest } from '../../api/login-request';
import { PASSWORD_REQUIRED_MESSAGE, USERNAME_REQUIRED_MESSAGE } from '../../domain/schemas/auth-messages';

export interface SignInFormProps {
  /** Called with the trimmed username once both fields are filled; the button spins until it settles. */
  onSubmit: (credentials: LoginRequest) => Promise<void>;
  /** How the two public links are drawn; plain anchors (a full page load) unless given. */
  renderLink?: (to: string, label: string) => ReactNode;
}

// Looks like MUI's Link without loading it (the first visit's budget).
const plainLink = (to: string, label: string) => (
  <Typography component="a" href={to} variant="body2" color="primary" sx={{ textUnderlineOffset: 2 }}>
    {label}
  </Typography>
);

type Field = 'userName' | 'password';

/**
 * SPEC §2's sign-in form, of the one sign-in page (sign-in-page.tsx), shown before the app loads
 * and in it. It checks its two required fields with plain React state instead
 * of Formik and yup like the other forms: the sign-in page has a download budget (bench:web,
 * at most 1.15× a bare React + MUI card) that those libraries do not fit in. The messages are
 * the ones loginSchema uses (domain/schemas/auth-messages.ts).
 */
export function SignInForm({ onSubmit, renderLink = plainLink }: SignInFormProps) {
  const [values, setValues] = useState({ userName: '', password: '' });
  const [touched, setTouched] = useState({ userName: false, password: false });
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const errors = {
    userName: values.userName.trim() ? undefined : USERNAME_REQUIRED_MESSAGE,
    password: values.password ? undefined : PASSWORD_REQUIRED_MESSAGE,
  };
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);
  const fieldProps = (field: Field) => ({
    id: field,
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value })),
    onBlur: () => setTouched((current) => ({ ...current, [field]: true })),
    error: Boolean(shown(field)),
    helperText: shown(field),
    fullWidth: true,
    size: 'small' as const,
    margin: 'dense' as const,
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ userName: true, password: true });
    if (submitting || errors.userName || errors.password) return;
    setSubmitting(true);
    try {
      await onSubmit({ userName: values.userName.trim(), password: values.password });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form noValidate aria-label="Sign in" onSubmit={submit}>
      <TextField {...fieldProps('userName')} label="Username" autoComplete="username" autoFocus />
      <TextField
        {...fieldProps('password')}
        label="Password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
      />
      <FormControlLabel
        control={<Checkbox checked={showPassword} onChange={(event) => setShowPassword(event.target.checked)} />}
        label="Show password"
      />
      <Box sx={{ display: 'grid', gap: 2, mt: 1 }}>
        <Button
          type="submit"
          variant="contained"
          disabled={submitting}
          fullWidth
          startIcon={submitting ? <CircularProgress size={16} color="inherit" aria-label="Submitting" /> : undefined}
        >
          Sign in
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
          {renderLink('/forgot-password', 'Forgot password?')}
          {renderLink('/examples/sign-up', 'Create an account')}
        </Box>
      </Box>
    </form>
  );
}
