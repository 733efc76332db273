import { useId, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Form, Formik, useFormikContext, type FormikHelpers, type FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';

/** A tab of a dialog beside its form ('History'): its label and what it shows, rendered only while open. */
export interface DialogTab {
  label: string;
  content: ReactNode;
}

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
  /** More tabs beside the form, which is then the 'Details' tab; the form keeps its values while another is shown. */
  tabs?: DialogTab[];
  /** Opened from a drawer that sits at the modal layer (a call's Details): drawn above it, its backdrop covering it. */
  overDrawer?: boolean;
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
  tabs = [],
  overDrawer = false,
}: FormDialogProps<V>) {
  const [shown, setShown] = useState(0);
  const id = useId();
  const tabId = (index: number) => `${id}-tab-${index}`;
  const panelId = (index: number) => `${id}-panel-${index}`;
  const panel = (index: number) => (tabs.length > 0 ? { role: 'tabpanel', id: panelId(index), 'aria-labelledby': tabId(index), hidden: shown !== index } : {});
  const submit = async (values: V, helpers: FormikHelpers<V>) => {
    const done = await onSubmit(values, helpers);
    if (done === true) {
      helpers.resetForm();
      onClose();
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="form-dialog-title" sx={overDrawer ? { zIndex: (theme) => theme.zIndex.modal + 1 } : undefined}>
      <Formik<V> initialValues={initialValues} validationSchema={schema} onSubmit={submit} enableReinitialize>
        <Form noValidate>
          <DialogTitle id="form-dialog-title">{title}</DialogTitle>
          {tabs.length > 0 && (
            <Tabs value={shown} onChange={(_event, next: number) => setShown(next)} aria-label={`${title}: details and more`} sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}>
              {['Details', ...tabs.map((tab) => tab.label)].map((label, index) => (
                <Tab key={label} label={label} id={tabId(index)} aria-controls={panelId(index)} />
              ))}
            </Tabs>
          )}
          <DialogContent>
            <Box {...panel(0)} sx={{ pt: tabs.length > 0 ? 2 : 0 }}>
              {subtitle && <DialogContentText>{subtitle}</DialogContentText>}
              {children}
            </Box>
            {tabs.map((tab, index) => (
              <Box key={tab.label} {...panel(index + 1)} sx={{ pt: 2 }}>
                {shown === index + 1 && tab.content}
              </Box>
            ))}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            {shown === 0 && <SubmitButton label={submitLabel} />}
          </DialogActions>
        </Form>
      </Formik>
    </Dialog>
  );
}
