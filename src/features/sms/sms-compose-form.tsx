import type { FormikHelpers } from 'formik';
import { useSendSmsMutation } from '../../api/sms-api';
import { FormCard } from '../../components/form-card';
import { FormSelect, FormTextField, SmsLengthCounter } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import { SMS_CATEGORY_LEVELS, categoryLevelLabel, type CategoryLevel } from '../../domain/category-levels';
import { smsSchema } from '../../domain/schemas/catalogue';

interface SmsFormValues {
  categoryLevel: string;
  phoneNumber: string;
  message: string;
}

const emptySms: SmsFormValues = { categoryLevel: '0', phoneNumber: '', message: '' };
const LEVEL_OPTIONS = SMS_CATEGORY_LEVELS.map((level) => ({ value: level, label: categoryLevelLabel(level) }));

/** The 'New message' form; resets after a message went out. */
export function SmsComposeForm() {
  const run = useSubmit();
  const [send] = useSendSmsMutation();
  const submit = (values: SmsFormValues, helpers: FormikHelpers<SmsFormValues>) =>
    run(() => send({ categoryLevel: values.categoryLevel as CategoryLevel, phoneNumber: values.phoneNumber.trim(), message: values.message }).unwrap(), {
      success: 'Successfully sent the message!',
      failure: 'Unable to send sms!',
      helpers,
    });
  return (
    <FormCard title="New message" schema={smsSchema} initialValues={emptySms} onSubmit={submit} submitLabel="Send">
      <FormSelect name="categoryLevel" label="Category level" options={LEVEL_OPTIONS} required />
      <FormTextField name="phoneNumber" label="Phone number" placeholder="256750461xxx" required slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
      <FormTextField name="message" label="Message" multiline minRows={3} required />
      <SmsLengthCounter name="message" parts />
    </FormCard>
  );
}
