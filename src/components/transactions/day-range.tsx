import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DateRangeIcon from '@mui/icons-material/DateRange';
import Typography from '@mui/material/Typography';
import { isDay } from '../../domain/calendar-day';
import { rangeErrors } from '../../domain/day-range';
import { formatDay } from '../../domain/format';
import type { ViewFilter } from '../../domain/list-view';
import { DateField } from '../date-field';

/** A range's ends in the URL: a day, or '' while no range is chosen. */
const rangeEnd: ViewFilter<string> = { initial: '', parse: (text) => (text === '' || isDay(text) ? text : undefined), format: (value) => value };

/** The range filters a list adds beside its day (`?dateFrom=&dateTo=`). */
export const RANGE_FILTERS = { dateFrom: rangeEnd, dateTo: rangeEnd };

export interface DayRange {
  dateFrom: string;
  dateTo: string;
}

/** The range to ask for when both ends are set and valid; null for the one day. */
export function chosenRange({ dateFrom, dateTo }: DayRange): DayRange | null {
  if (!dateFrom || !dateTo) return null;
  return rangeErrors({ dateFrom, dateTo }).length === 0 ? { dateFrom, dateTo } : null;
}

/** What a list's request says of its days: the range when one is chosen, else the day. */
export const daysArgs = (date: string, range: DayRange) => {
  const chosen = chosenRange(range);
  return chosen ? { ...chosen, date: undefined } : { date, dateFrom: undefined, dateTo: undefined };
};

/** 'for 26 November 2026', or 'from 1 November 2026 to 26 November 2026'. */
export function daysHeading(date: string, range: DayRange): string {
  const chosen = chosenRange(range);
  return chosen ? `from ${formatDay(chosen.dateFrom)} to ${formatDay(chosen.dateTo)}` : `for ${formatDay(date)}`;
}

export interface DayRangeFieldsProps {
  date: string;
  range: DayRange;
  onChange: (next: Partial<DayRange>) => void;
}

/**
 * A range beside the day, kept to one icon until asked for: the icon swaps the day for a From and a
 * To field (at most 31 days apart); pressed again, the list goes back to its one day.
 */
export function DayRangeToggle({ date, range, onChange }: DayRangeFieldsProps) {
  const shown = Boolean(range.dateFrom || range.dateTo);
  const label = shown ? 'Show one day' : 'Choose a range of days';
  return (
    <Tooltip title={label}>
      <IconButton
        aria-label={label}
        aria-pressed={shown}
        onClick={() => {
          onChange(shown ? { dateFrom: '', dateTo: '' } : { dateFrom: date, dateTo: date });
        }}
        sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
      >
        <DateRangeIcon />
      </IconButton>
    </Tooltip>
  );
}

/** The From and To fields, with why the range is not taken (order, length) under them. */
export function DayRangeFields({ range, onChange }: Omit<DayRangeFieldsProps, 'date'>) {
  const [error] = rangeErrors({ dateFrom: range.dateFrom, dateTo: range.dateTo });
  return (
    <>
      <DateField label="From" value={range.dateFrom} onChange={(dateFrom) => onChange({ dateFrom })} />
      <DateField label="To" value={range.dateTo} onChange={(dateTo) => onChange({ dateTo })} />
      {error && (
        <Typography role="alert" variant="body2" color="error">
          {error.message}
        </Typography>
      )}
    </>
  );
}
