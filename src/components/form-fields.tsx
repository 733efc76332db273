import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useField, useFormikContext } from 'formik';
import { fitsSmsLimit, SMS_MAX_LENGTH, smsSegments } from '../domain/sms-segments';

/** SPEC §5: selects start on value '0' shown as '--Select--'. */
export const SELECT_PLACEHOLDER = { value: '0', label: '--Select--' } as const;

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

type BaseTextProps = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'select'>;

/** A text input bound to Formik by name; shows the field's message once touched (SPEC §5). */
export function FormTextField({ name, helperText, ...props }: BaseTextProps & { name: string }) {
  const [field, meta] = useField<string | number>(name);
  const invalid = Boolean(meta.touched && meta.error);
  return (
    <TextField
      {...field}
      value={field.value ?? ''}
      {...props}
      id={props.id ?? name}
      error={invalid}
      helperText={invalid ? meta.error : helperText}
      fullWidth={props.fullWidth ?? true}
      size={props.size ?? 'small'}
      margin={props.margin ?? 'dense'}
    />
  );
}

/** A select bound to Formik, starting with '--Select--' (value '0') unless noPlaceholder. */
export function FormSelect({
  name,
  options,
  noPlaceholder = false,
  helperText,
  ...props
}: Omit<BaseTextProps, 'placeholder'> & { name: string; options: SelectOption[]; noPlaceholder?: boolean }) {
  const [field, meta] = useField<string>(name);
  const invalid = Boolean(meta.touched && meta.error);
  const all = noPlaceholder ? options : [SELECT_PLACEHOLDER, ...options];
  return (
    <TextField
      {...field}
      value={field.value ?? SELECT_PLACEHOLDER.value}
      {...props}
      id={props.id ?? name}
      select
      error={invalid}
      helperText={invalid ? meta.error : helperText}
      fullWidth={props.fullWidth ?? true}
      size={props.size ?? 'small'}
      margin={props.margin ?? 'dense'}
    >
      {all.map((option) => (
        <MenuItem key={option.value} value={option.value} disabled={'disabled' in option && option.disabled}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface ToggleProps {
  name: string;
  label: string;
  disabled?: boolean;
}

/** A boolean field as a checkbox. */
export function FormCheckbox({ name, label, disabled }: ToggleProps) {
  const [field, meta] = useField<boolean>({ name, type: 'checkbox' });
  const invalid = Boolean(meta.touched && meta.error);
  return (
    <FormControl error={invalid} margin="dense">
      <FormControlLabel control={<Checkbox {...field} checked={Boolean(field.checked)} disabled={disabled} />} label={label} />
      {invalid && <FormHelperText>{meta.error}</FormHelperText>}
    </FormControl>
  );
}

/** A boolean field as a switch (e.g. the Afcon-only account). */
export function FormSwitch({ name, label, disabled }: ToggleProps) {
  const [field] = useField<boolean>({ name, type: 'checkbox' });
  return (
    <FormControlLabel
      control={<Switch {...field} checked={Boolean(field.checked)} disabled={disabled} />}
      label={label}
      sx={{ my: 1 }}
    />
  );
}

/**
 * SPEC §2's live counter n/160 under a message field, with the SMS parts the network will bill
 * when `parts` (DESIGN §5). Past the limit, which the form refuses, it turns to the error colour
 * and drops the parts ('170/160 2 SMS' would read as allowed).
 */
export function SmsLengthCounter({ name, parts = false }: { name: string; parts?: boolean }) {
  const [field] = useField<string>(name);
  const text = field.value ?? '';
  const segments = smsSegments(text);
  const over = !fitsSmsLimit(text);
  return (
    <Typography variant="caption" component="div" aria-live="polite" sx={{ display: 'flex', gap: 2 }}>
      <Box component="span" sx={{ color: over ? 'error.main' : 'text.secondary', fontWeight: over ? 600 : undefined }}>
        {segments.units}/{SMS_MAX_LENGTH}
      </Box>
      {parts && !over && (
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {segments.parts} SMS{segments.encoding === 'UCS-2' ? ' (Unicode)' : ''}
        </Box>
      )}
    </Typography>
  );
}

/**
 * A choice of a few options as radio buttons, under a legend. Enter on a radio submits the form,
 * as it does in a text field (browsers do not submit from a radio themselves).
 */
export function FormRadioGroup({ name, label, options, autoFocus }: { name: string; label: string; options: SelectOption[]; autoFocus?: boolean }) {
  const [field, meta] = useField<string>(name);
  const { submitForm } = useFormikContext();
  const invalid = Boolean(meta.touched && meta.error);
  const helperId = `${name}-helper`;
  return (
    <FormControl component="fieldset" error={invalid} margin="dense" fullWidth>
      <FormLabel component="legend">{label}</FormLabel>
      <RadioGroup
        {...field}
        value={field.value ?? ''}
        aria-describedby={invalid ? helperId : undefined}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.target as HTMLElement).matches('input[type="radio"]')) {
            event.preventDefault();
            void submitForm();
          }
        }}
      >
        {options.map((option, index) => (
          <FormControlLabel
            key={option.value}
            value={option.value}
            control={<Radio size="small" autoFocus={autoFocus && (field.value ? field.value === option.value : index === 0)} />}
            label={option.label}
            sx={{ my: -0.25 }}
          />
        ))}
      </RadioGroup>
      {invalid && <FormHelperText id={helperId}>{meta.error}</FormHelperText>}
    </FormControl>
  );
}
