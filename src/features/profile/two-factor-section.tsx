import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { serverMessage, useSubmit } from '../../components/use-submit';
import { useDisableTwoFactorMutation, useEnableTwoFactorMutation, useSetupTwoFactorMutation } from '../../api/two-factor-api';
import { FormCard } from '../../components/form-card';
import { FormTextField } from '../../components/form-fields';
import { saveFile } from '../../components/save-file';
import { useAppDispatch } from '../../state/hooks';
import { twoFactorEnrolled } from '../../state/session-slice';
import { twoFactorDisableSchema, twoFactorEnableSchema, type TwoFactorSetup } from '../../domain/two-factor';

/** The otpauth URL as a QR code image (an SVG data URL); qrcode loads only when a set-up starts. */
function useQrCode(otpauthUrl: string | undefined) {
  const [image, setImage] = useState<{ url: string; src: string } | null>(null);
  useEffect(() => {
    if (!otpauthUrl) return;
    let current = true;
    void import('qrcode').then(async ({ toString }) => {
      const svg = await toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      if (current) setImage({ url: otpauthUrl, src: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}` });
    });
    return () => {
      current = false;
    };
  }, [otpauthUrl]);
  return image && image.url === otpauthUrl ? image.src : null;
}

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function Enrolment({ setup, onEnabled }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void }) {
  const [enable] = useEnableTwoFactorMutation();
  const run = useSubmit();
  const qr = useQrCode(setup.otpauthUrl);
  return (
    <FormCard
      title="Turn on two-factor sign-in"
      subtitle="Scan the QR code with an authenticator app (or type the key), then enter the 6-digit code it shows."
      schema={twoFactorEnableSchema}
      initialValues={{ code: '' }}
      submitLabel="Turn on"
      onSubmit={(values, helpers) =>
        run(async () => onEnabled(await enable({ code: values.code.trim() }).unwrap()), { success: 'Two-factor sign-in is on', failure: serverMessage, helpers })
      }
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mb: 1 }}>
        <Box sx={{ width: 176, height: 176, bgcolor: '#fff', borderRadius: 1, p: 1, flexShrink: 0 }}>
          {qr && <img src={qr} alt="QR code to scan with an authenticator app" width={160} height={160} />}
        </Box>
        <Box>
          <Typography variant="body2" color="text.secondary">
            Key
          </Typography>
          <Typography component="code" data-testid="two-factor-secret" sx={{ fontFamily: 'monospace', fontSize: 15, wordBreak: 'break-all' }}>
            {grouped(setup.secret)}
          </Typography>
        </Box>
      </Stack>
      <FormTextField name="code" label="Code" autoComplete="one-time-code" slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }} />
    </FormCard>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  return (
    <Card variant="outlined" sx={{ maxWidth: 640 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          Recovery codes
        </Typography>
        <Alert severity="warning" sx={{ my: 1 }}>
          Save these now: they are shown only this once. Each signs you in once if you lose your phone.
        </Alert>
        <Box component="ul" aria-label="Recovery codes" sx={{ columns: 2, fontFamily: 'monospace', fontSize: 15, pl: 3, my: 1 }}>
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </Box>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button variant="outlined" onClick={() => void navigator.clipboard?.writeText(text)}>
            Copy
          </Button>
          <Button variant="outlined" onClick={() => saveFile(new Blob([text], { type: 'text/plain' }), 'dialdesk-recovery-codes.txt')}>
            Download
          </Button>
          <Button variant="contained" onClick={onDone}>
            I have saved them
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

function TurnOff() {
  const [disable] = useDisableTwoFactorMutation();
  const run = useSubmit();
  return (
    <FormCard
      title="Two-factor sign-in is on"
      subtitle="To turn it off, enter your password and a code from your app, or one of your recovery codes."
      schema={twoFactorDisableSchema}
      initialValues={{ password: '', code: '', recoveryCode: '' }}
      submitLabel="Turn off"
      onSubmit={(values, helpers) =>
        run(
          () =>
            disable({
              password: values.password,
              ...(values.code.trim() ? { code: values.code.trim() } : { recoveryCode: values.recoveryCode.trim() }),
            }).unwrap(),
          { success: 'Two-factor sign-in is off', failure: serverMessage, helpers },
        )
      }
    >
      <FormTextField name="password" label="Password" type="password" autoComplete="current-password" />
      <FormTextField name="code" label="Code" autoComplete="one-time-code" slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }} />
      <FormTextField name="recoveryCode" label="Or a recovery code" autoComplete="off" />
    </FormCard>
  );
}

/**
 * The profile's two-factor sign-in: set it up (QR code, key, a first code), see the recovery codes
 * once, or turn it off. `required`: the role may use nothing else until it is on.
 */
export function TwoFactorSection({ enabled, required }: { enabled: boolean; required: boolean }) {
  const [setupTwoFactor, { data: setup, isLoading, reset }] = useSetupTwoFactorMutation();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const dispatch = useAppDispatch();
  const run = useSubmit();
  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  if (enabled) return <TurnOff />;
  if (setup) {
    return (
      <Enrolment
        setup={setup}
        onEnabled={(codes) => {
          setRecoveryCodes(codes);
          reset();
          dispatch(twoFactorEnrolled());
        }}
      />
    );
  }
  return (
    <Card variant="outlined" sx={{ maxWidth: 640 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          Two-factor sign-in
        </Typography>
        {required && (
          <Alert severity="info" sx={{ my: 1 }}>
            Your role signs in with two-factor: set it up to use Dialdesk.
          </Alert>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
          Off. With it on, signing in asks for a code from an authenticator app on your phone as well as your password.
        </Typography>
        <Button variant="contained" disabled={isLoading} onClick={() => void run(() => setupTwoFactor().unwrap(), { success: null, failure: serverMessage })}>
          Set up two-factor sign-in
        </Button>
      </CardContent>
    </Card>
  );
}
