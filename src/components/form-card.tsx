import type { ReactNode } from 'react';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Form, Formik, type FormikHelpers, type FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';
import { SubmitButton, type FormSubmit } from './form-dialog';
import { CardSubtitle } from './card-subtitle';

export interface FormCardProps<V extends FormikValues> {
  title: string;
  subtitle?: ReactNode;
  schema: AnyObjectSchema;
  initialValues: V;
  /** Resolve true to reset the form (e.g. after a create succeeded). */
  onSubmit: FormSubmit<V>;
  submitLabel: string;
  children: ReactNode;
}

/** The in-page twin of FormDialog (create tabs, profile): same fields, same schema rules. */
export function FormCard<V extends FormikValues>({
  title,
  subtitle,
  schema,
  initialValues,
  onSubmit,
  submitLabel,
  children,
}: FormCardProps<V>) {
  const submit = async (values: V, helpers: FormikHelpers<V>) => {
    if ((await onSubmit(values, helpers)) === true) helpers.resetForm();
  };
  return (
    <Card variant="outlined" sx={{ maxWidth: 640 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {subtitle && <CardSubtitle>{subtitle}</CardSubtitle>}
        <Formik<V> initialValues={initialValues} validationSchema={schema} onSubmit={submit} enableReinitialize>
          <Form noValidate aria-label={title}>
            {children}
            <Stack direction="row" sx={{ mt: 2 }}>
              <SubmitButton label={submitLabel} />
            </Stack>
          </Form>
        </Formik>
      </CardContent>
    </Card>
  );
}
