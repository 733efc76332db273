import { useEffect, useMemo, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useGetServiceCodesTodayQuery } from '../../api/service-codes-api';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { selectChosenView, serviceCodeDayChosen } from '../../state/view-slice';
import { todayInServiceZone } from '../../domain/format';
import { dayFilter, fixedFilter, serviceCodeFilter, type ViewFilters } from '../../domain/list-view';
import { readsEveryCode } from '../../domain/roles';
import { DateField } from '../date-field';
import { DayRangeFields, DayRangeToggle, type DayRange } from './day-range';
import { ServiceCodeSwitcher } from './service-code-switcher';

/** A service code (empty: every code the caller may read) and a day `YYYY-MM-DD`. */
export interface ServiceCodeDay {
  name: string;
  date: string;
}

/**
 * A list by service code and day kept in the URL: the code and the day are read from the query
 * when it names them (the menu's links carry the ones the person chose last), else their stored
 * code (SPEC §4) and today. Everyone but the Afcon-only account chooses among the codes in their
 * scope (DESIGN §4): a manager any, an agent its own, so a link naming another agent's code
 * opens the agent's default view instead.
 */
export function useServiceCodeDayView(): { filters: ViewFilters<ServiceCodeDay>; canChooseCode: boolean } {
  const user = useAppSelector(selectSessionUser);
  // Managers and customer care read every code; an agent, its own.
  const everyCode = readsEveryCode(user?.role);
  const canChooseCode = !user?.isAfcon;
  // An agent's scope: the codes its sign-in named, and any the switcher's list has since (a code
  // registered after sign-in). The list is the switcher's own query, so it is asked once.
  const today = useGetServiceCodesTodayQuery(undefined, { skip: everyCode || !canChooseCode });
  const scope = useMemo(() => new Set([...(user?.serviceCode ?? []).map((code) => code.name), ...(today.data ?? []).map((code) => code.name)]), [user?.serviceCode, today.data]);
  const storedCode = user?.serviceCode?.[0]?.name ?? '';
  const filters = useMemo((): ViewFilters<ServiceCodeDay> => {
    const date = dayFilter(todayInServiceZone());
    if (!canChooseCode) return { name: fixedFilter(storedCode), date };
    const code = serviceCodeFilter(storedCode);
    if (everyCode) return { name: code, date };
    return { name: { ...code, parse: (text) => (text === '' || scope.has(text) ? code.parse(text) : undefined) }, date };
  }, [canChooseCode, storedCode, everyCode, scope]);
  return { filters, canChooseCode };
}

/**
 * Remembers the view a screen shows for the next one (and the top bar): whatever differs from what
 * was remembered (a code picked, a day typed, a link followed, Back) becomes the chosen one.
 */
function useCarryView(shown: ServiceCodeDay, enabled: boolean) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectSessionUser);
  const chosen = useAppSelector(selectChosenView);
  const carriedCode = chosen.serviceCode ?? user?.serviceCode?.[0]?.name ?? '';
  const carriedDay = chosen.date ?? todayInServiceZone();
  useEffect(() => {
    if (!enabled) return;
    const serviceCode = shown.name !== carriedCode ? shown.name : undefined;
    const date = shown.date !== carriedDay ? shown.date : undefined;
    if (serviceCode !== undefined || date !== undefined) dispatch(serviceCodeDayChosen({ serviceCode, date }));
  }, [enabled, shown.name, shown.date, carriedCode, carriedDay, dispatch]);
}

export interface ServiceCodeDayFiltersProps {
  value: ServiceCodeDay;
  onChange: (next: Partial<ServiceCodeDay>) => void;
  /** DESIGN §4: a manager chooses among every code, an agent among its own; the Afcon-only account sees its code fixed. */
  canChooseCode: boolean;
  /** A campaign's one code, shown fixed and disabled whoever looks (SPEC §6). */
  fixedCode?: string;
  /** AFCON shows its fixed code in green (SPEC §2). */
  greenCode?: boolean;
  onRefresh: () => void;
  refreshing?: boolean;
  /** More actions beside Refresh (e.g. Export CSV). */
  children?: ReactNode;
  /** A range of days offered beside the day (the lists; the dashboard shows one day). */
  range?: { value: DayRange; onChange: (next: Partial<DayRange>) => void };
}

// A disabled field greys its text through -webkit-text-fill-color, so both are set.
const GREEN_CODE = { '& .MuiInputBase-input.Mui-disabled': { color: 'success.main', WebkitTextFillColor: 'currentColor', fontWeight: 600 } };

/** Service code, date (MM/DD/YYYY, SPEC §9) and Refresh, shared by the transaction lists and the dashboard. */
export function ServiceCodeDayFilters({ value, onChange, canChooseCode, fixedCode, greenCode = false, onRefresh, refreshing = false, children, range }: ServiceCodeDayFiltersProps) {
  const choosing = canChooseCode && !fixedCode;
  useCarryView(value, choosing);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
      {choosing ? (
        <ServiceCodeSwitcher value={value.name} onChange={(name) => onChange({ name })} />
      ) : (
        <TextField size="small" label="Service code" value={fixedCode ?? (value.name || 'N/A')} disabled sx={{ minWidth: 200, ...(greenCode ? GREEN_CODE : {}) }} />
      )}
      {range && (range.value.dateFrom || range.value.dateTo) ? (
        <DayRangeFields range={range.value} onChange={range.onChange} />
      ) : (
        <DateField label="Date" value={value.date} onChange={(date) => onChange({ date })} />
      )}
      {range && <DayRangeToggle date={value.date} range={range.value} onChange={range.onChange} />}
      <Button variant="outlined" startIcon={<RefreshIcon />} onClick={onRefresh} disabled={refreshing}>
        Refresh
      </Button>
      {children}
    </Stack>
  );
}
