import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { Form, Formik, useFormikContext, type FormikHelpers, type FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';

/** Resolve true to close the dialog and reset the form (SPEC §4: after a successful edit). */
export type FormSubmit<V> = (values: V, helpers: FormikHelpers<V>) => Promise<boolean | void>;

export interface FormDialogProps<V extends FormikValues> {
  open: boolean;
  onClose: () => void;
  title: string;
  subtitle?: string;
  schema: AnyObjectSchema;
  initialValues: V;
  onSubmit: FormSubmit<V>;
  submitLabel?: string;
  /** The fields: FormTextField, FormSelect, FormCheckbox, FormSwitch. */
  children: ReactNode;
}

/** Submit button that is disabled and spins while Formik submits. */
export function SubmitButton({ label, fullWidth }: { label: string; fullWidth?: boolean }) {
  const { isSubmitting } = useFormikContext();
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={isSubmitting}
      fullWidth={fullWidth}
      startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" aria-label="Submitting" /> : undefined}
    >
      {label}
    </Button>
  );
}

/**
 * The one form dialog: a Formik form validated by a domain yup schema. Fields show SPEC's
 * messages once touched; submission is blocked while any remains.
 */
export function FormDialog<V extends FormikValues>({
  open,
  onClose,
  title,
  subtitle,
  schema,
  initialValues,
  onSubmit,
  submitLabel = 'Save',
  children,
}: FormDialogProps<V>) {
  const submit = async (values: V, helpers: FormikHelpers<V>) => {
    const done = await onSubmit(values, helpers);
    if (done === true) {
      helpers.resetForm();
      onClose();
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="form-dialog-title">
      <Formik<V> initialValues={initialValues} validationSchema={schema} onSubmit={submit} enableReinitialize>
        <Form noValidate>
          <DialogTitle id="form-dialog-title">{title}</DialogTitle>
          <DialogContent>
            {subtitle && <DialogContentText>{subtitle}</DialogContentText>}
            {children}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <SubmitButton label={submitLabel} />
          </DialogActions>
        </Form>
      </Formik>
    </Dialog>
  );
}
