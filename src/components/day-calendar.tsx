import Popover from '@mui/material/Popover';
import { AdapterMoment } from '@mui/x-date-pickers/AdapterMoment';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import moment from 'moment';

export interface DayCalendarProps {
  open: boolean;
  anchorEl: HTMLElement | null;
  /** The chosen day `YYYY-MM-DD`. */
  value: string;
  /** Called with the day a person picks, `YYYY-MM-DD`. */
  onChange: (day: string) => void;
  onClose: () => void;
  label: string;
}

/**
 * The x-date-pickers calendar in a popover. Only date-field.tsx loads this module, with
 * import(), when someone opens the calendar: the pickers, their LocalizationProvider and
 * moment stay out of every route's first download.
 */
export default function DayCalendar({ open, anchorEl, value, onChange, onClose, label }: DayCalendarProps) {
  return (
    <LocalizationProvider dateAdapter={AdapterMoment}>
      <Popover
        open={open}
        anchorEl={anchorEl}
        onClose={onClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': label } }}
      >
        <DateCalendar
          // The chosen day takes the focus, so the arrow keys move from it at once.
          autoFocus
          value={moment(value, 'YYYY-MM-DD')}
          onChange={(next, selection) => {
            // Choosing a year first is a step on the way; choosing a day finishes.
            if (selection === 'finish' && next?.isValid()) onChange(next.format('YYYY-MM-DD'));
          }}
        />
      </Popover>
    </LocalizationProvider>
  );
}
