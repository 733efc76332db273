import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { todayInServiceZone } from '../../domain/format';
import { dayFilter, fixedFilter, serviceCodeFilter, type ViewFilters } from '../../domain/list-view';
import { readsEveryCode } from '../../domain/roles';
import { DateField } from '../date-field';
import { ServiceCodeSwitcher } from './service-code-switcher';

/** A service code (empty: every code the caller may read) and a day `YYYY-MM-DD`. */
export interface ServiceCodeDay {
  name: string;
  date: string;
}

/**
 * A list by service code and day kept in the URL: the manager's code and the day are
 * read from the query when it has them, else the stored code (SPEC §4) and today; a code the person
 * cannot choose (DESIGN §4: admin and super-user choose) is fixed, whatever a link says.
 */
export function useServiceCodeDayView(): { filters: ViewFilters<ServiceCodeDay>; canChooseCode: boolean } {
  const user = useAppSelector(selectSessionUser);
  const storedCode = user?.serviceCode?.[0]?.name ?? '';
  const canChooseCode = readsEveryCode(user?.role);
  return { filters: { name: canChooseCode ? serviceCodeFilter(storedCode) : fixedFilter(storedCode), date: dayFilter(todayInServiceZone()) }, canChooseCode };
}

export interface ServiceCodeDayFiltersProps {
  value: ServiceCodeDay;
  onChange: (next: Partial<ServiceCodeDay>) => void;
  /** DESIGN §4: admin and super-user choose among the registered codes; others see theirs fixed. */
  canChooseCode: boolean;
  /** A campaign's one code, shown fixed and disabled whoever looks (SPEC §6). */
  fixedCode?: string;
  /** AFCON shows its fixed code in green (SPEC §2). */
  greenCode?: boolean;
  onRefresh: () => void;
  refreshing?: boolean;
  /** More actions beside Refresh (e.g. Export CSV). */
  children?: ReactNode;
}

// A disabled field greys its text through -webkit-text-fill-color, so both are set.
const GREEN_CODE = { '& .MuiInputBase-input.Mui-disabled': { color: 'success.main', WebkitTextFillColor: 'currentColor', fontWeight: 600 } };

/** Service code, date (MM/DD/YYYY, SPEC §9) and Refresh, shared by the transaction lists and the dashboard. */
export function ServiceCodeDayFilters({ value, onChange, canChooseCode, fixedCode, greenCode = false, onRefresh, refreshing = false, children }: ServiceCodeDayFiltersProps) {
  const choosing = canChooseCode && !fixedCode;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
      {choosing ? (
        <ServiceCodeSwitcher value={value.name} onChange={(name) => onChange({ name })} />
      ) : (
        <TextField size="small" label="Service code" value={fixedCode ?? (value.name || 'N/A')} disabled sx={{ minWidth: 200, ...(greenCode ? GREEN_CODE : {}) }} />
      )}
      <DateField label="Date" value={value.date} onChange={(date) => onChange({ date })} />
      <Button variant="outlined" startIcon={<RefreshIcon />} onClick={onRefresh} disabled={refreshing}>
        Refresh
      </Button>
      {children}
    </Stack>
  );
}
