import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useField, type FormikHelpers } from 'formik';
import { useSnackbar } from 'notistack';
import { readApiError } from '../../api/api-error';
import { useSendSmsMutation } from '../../api/sms-api';
import { FormCard } from '../../components/form-card';
import { FormSelect, FormTextField } from '../../components/form-fields';
import { SMS_CATEGORY_LEVELS, categoryLevelLabel, type CategoryLevel } from '../../domain/category-levels';
import { smsSchema } from '../../domain/schemas/catalogue';
import { SMS_MAX_LENGTH, smsSegments } from '../../domain/sms-segments';

interface SmsFormValues {
  categoryLevel: string;
  phoneNumber: string;
  message: string;
}

const emptySms: SmsFormValues = { categoryLevel: '0', phoneNumber: '', message: '' };
const LEVEL_OPTIONS = SMS_CATEGORY_LEVELS.map((level) => ({ value: level, label: categoryLevelLabel(level) }));

/** SPEC §2 counter n/160, plus the parts the network will bill (DESIGN §5). */
function MessageCounter() {
  const [field] = useField<string>('message');
  const segments = smsSegments(field.value ?? '');
  return (
    <Stack direction="row" spacing={2} aria-live="polite">
      <Typography variant="caption" color="text.secondary">
        {segments.units}/{SMS_MAX_LENGTH}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {segments.parts} SMS{segments.encoding === 'UCS-2' ? ' (Unicode)' : ''}
      </Typography>
    </Stack>
  );
}

/** The 'New message' form; resets after a message went out. */
export function SmsComposeForm() {
  const { enqueueSnackbar } = useSnackbar();
  const [send] = useSendSmsMutation();
  const submit = async (values: SmsFormValues, helpers: FormikHelpers<SmsFormValues>) => {
    try {
      await send({ categoryLevel: values.categoryLevel as CategoryLevel, phoneNumber: values.phoneNumber.trim(), message: values.message }).unwrap();
      enqueueSnackbar('Successfully sent the message!', { variant: 'success' });
      return true;
    } catch (error) {
      const info = readApiError(error);
      if (info.errors.length) helpers.setErrors(Object.fromEntries(info.errors.map((e) => [e.field, e.message])));
      enqueueSnackbar('Unable to send sms!', { variant: 'error' });
      return false;
    }
  };
  return (
    <FormCard title="New message" schema={smsSchema} initialValues={emptySms} onSubmit={submit} submitLabel="Send">
      <FormSelect name="categoryLevel" label="Category level" options={LEVEL_OPTIONS} required />
      <FormTextField name="phoneNumber" label="Phone number" placeholder="256750461xxx" required slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
      <FormTextField name="message" label="Message" multiline minRows={3} required />
      <MessageCounter />
    </FormCard>
  );
}
