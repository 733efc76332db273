import { useRef, useState, type ComponentType } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import EventIcon from '@mui/icons-material/Event';
import { dayToUsDate, usDateToDay } from '../domain/calendar-day';
import { todayInServiceZone } from '../domain/format';
import type { DayCalendarProps } from './day-calendar';
import { defaultExport } from './lazy-import';

export const INVALID_DATE = 'Invalid date, use MM/DD/YYYY';
export const CALENDAR_NOT_LOADED = 'The calendar did not load, type the date';

type CalendarModule = { default: ComponentType<DayCalendarProps> | { default: ComponentType<DayCalendarProps> } };

const loadCalendar = async () => defaultExport(await (import(/* webpackChunkName: "day-calendar" */ './day-calendar') as Promise<CalendarModule>));

/** Typed text that has the shape of a whole date, so a wrong one is worth saying at once. */
const looksComplete = (text: string) => /^\s*(\d{1,2}\/\d{1,2}\/\d{4}|\d{8})\s*$/.test(text) || text.trim().length > 10;

export interface DateFieldProps {
  label: string;
  /** A day `YYYY-MM-DD`, shown as MM/DD/YYYY (SPEC §9). */
  value: string;
  /** Called with each valid day typed or picked, `YYYY-MM-DD`; never with an invalid one. */
  onChange: (day: string) => void;
  /** No day is a value too: '' shows an empty field, and emptying the field answers ''. */
  optional?: boolean;
}

/**
 * A day as MM/DD/YYYY in a plain text field, with a button that opens a calendar. The calendar
 * (x-date-pickers with moment) loads when first opened, so a screen with a date costs the first
 * visit a text field and an icon.
 */
export function DateField({ label, value, onChange, optional = false }: DateFieldProps) {
  const textOf = (day: string) => (day === '' ? '' : dayToUsDate(day));
  const [text, setText] = useState(() => textOf(value));
  const [shownValue, setShownValue] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [Calendar, setCalendar] = useState<ComponentType<DayCalendarProps> | null>(null);
  const [open, setOpen] = useState(false);
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);
  const [loading, setLoading] = useState(false);
  const field = useRef<HTMLDivElement>(null);

  // A new value from outside (the calendar, a reset) replaces whatever was typed.
  if (shownValue !== value) {
    setShownValue(value);
    setText(textOf(value));
    setError(null);
  }

  const type = (next: string) => {
    setText(next);
    const day = usDateToDay(next);
    if (optional && next.trim() === '') {
      setError(null);
      if (value !== '') onChange('');
    } else if (day) {
      setError(null);
      if (day !== value) onChange(day);
    } else {
      setError(looksComplete(next) ? INVALID_DATE : null);
    }
  };

  const settle = () => {
    if (optional && text.trim() === '') setText('');
    else if (usDateToDay(text)) setText(textOf(value));
    else setError(INVALID_DATE);
  };

  const openCalendar = async () => {
    if (loading) return;
    setLoading(true);
    try {
      const loaded = await loadCalendar();
      setCalendar(() => loaded);
      setAnchorEl(field.current);
      setOpen(true);
    } catch {
      setError(CALENDAR_NOT_LOADED);
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <TextField
        ref={field}
        size="small"
        label={label}
        value={text}
        placeholder="MM/DD/YYYY"
        error={error !== null}
        helperText={error}
        onChange={(event) => type(event.target.value)}
        onBlur={settle}
        onKeyDown={(event) => {
          if (event.key === 'Enter') settle();
        }}
        // In a row the message hangs in the gap below the field instead of pushing the field up.
        sx={{
          width: { sm: 190 },
          '& .MuiFormHelperText-root': { position: { sm: 'absolute' }, top: { sm: '100%' }, mt: { sm: '2px' }, lineHeight: { sm: 1.2 }, whiteSpace: 'nowrap' },
        }}
        slotProps={{
          htmlInput: { autoComplete: 'off' },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  edge="end"
                  size="small"
                  aria-label="Choose date"
                  aria-haspopup="dialog"
                  aria-busy={loading}
                  // Start fetching the calendar as the pointer or focus arrives, so it opens at once.
                  onPointerEnter={() => void loadCalendar().catch(() => undefined)}
                  onFocus={() => void loadCalendar().catch(() => undefined)}
                  onClick={openCalendar}
                >
                  {loading ? <CircularProgress size={20} color="inherit" aria-label="Loading" /> : <EventIcon fontSize="small" />}
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      {Calendar && (
        <Calendar
          open={open}
          anchorEl={anchorEl}
          value={value || todayInServiceZone()}
          label={label}
          onClose={() => setOpen(false)}
          onChange={(day) => {
            setOpen(false);
            setText(dayToUsDate(day));
            setError(null);
            if (day !== value) onChange(day);
          }}
        />
      )}
    </>
  );
}
