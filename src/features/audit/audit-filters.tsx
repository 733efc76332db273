import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, auditActionLabel, auditEntityTypeLabel, type AuditAction, type AuditEntityType } from '../../domain/audit';
import { DateField } from '../../components/date-field';
import { choiceFilter, dayFilter, typedTextFilter } from '../../domain/list-view';

/** The trail's filters as the URL keeps them; '' is 'any'. */
export const AUDIT_FILTERS = {
  actor: typedTextFilter(100),
  action: choiceFilter<AuditAction | ''>(['', ...AUDIT_ACTIONS], ''),
  entityType: choiceFilter<AuditEntityType | ''>(['', ...AUDIT_ENTITY_TYPES], ''),
  entityId: typedTextFilter(100),
  serviceCode: typedTextFilter(50),
  from: dayFilter(''),
  to: dayFilter(''),
};

export type AuditFilterValues = { [K in keyof typeof AUDIT_FILTERS]: (typeof AUDIT_FILTERS)[K]['initial'] };

/** A text filter applied on Enter or when the field is left, not at every key. */
function TypedFilter({ label, value, onCommit, width }: { label: string; value: string; onCommit: (value: string) => void; width: number }) {
  const [text, setText] = useState(value);
  const commit = () => {
    if (text.trim() !== value) onCommit(text.trim());
  };
  return (
    <TextField
      size="small"
      label={label}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      sx={{ width: { sm: width } }}
      slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 100 } }}
    />
  );
}

/** Who, which action, which kind of record, which service code and which days; a record's id (from a link) as a chip. */
export function AuditFilters({ filters, onChange }: { filters: AuditFilterValues; onChange: (next: Partial<AuditFilterValues>) => void }) {
  const any = Object.values(filters).some((value) => value !== '');
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: { sm: 'flex-start' } }}>
      {/* Keyed by the URL's value: Back, Forward or Clear show it afresh. */}
      <TypedFilter key={`actor ${filters.actor}`} label="Who (user name or id)" value={filters.actor} onCommit={(actor) => onChange({ actor })} width={200} />
      <TextField select size="small" label="Action" value={filters.action} onChange={(event) => onChange({ action: event.target.value as AuditAction | '' })} sx={{ width: { sm: 220 } }}>
        <MenuItem value="">Any action</MenuItem>
        {AUDIT_ACTIONS.map((action) => (
          <MenuItem key={action} value={action}>
            {auditActionLabel(action)}
          </MenuItem>
        ))}
      </TextField>
      <TextField select size="small" label="Record" value={filters.entityType} onChange={(event) => onChange({ entityType: event.target.value as AuditEntityType | '', entityId: '' })} sx={{ width: { sm: 160 } }}>
        <MenuItem value="">Any record</MenuItem>
        {AUDIT_ENTITY_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {auditEntityTypeLabel(type)}
          </MenuItem>
        ))}
      </TextField>
      <TypedFilter key={`code ${filters.serviceCode}`} label="Service code" value={filters.serviceCode} onCommit={(serviceCode) => onChange({ serviceCode })} width={140} />
      <DateField label="From" optional value={filters.from} onChange={(from) => onChange({ from })} />
      <DateField label="To" optional value={filters.to} onChange={(to) => onChange({ to })} />
      {filters.entityId && <Chip label={`One record: ${filters.entityId}`} onDelete={() => onChange({ entityId: '' })} sx={{ alignSelf: { sm: 'center' } }} />}
      {any && (
        <Button onClick={() => onChange({ actor: '', action: '', entityType: '', entityId: '', serviceCode: '', from: '', to: '' })} sx={{ alignSelf: { sm: 'center' } }}>
          Clear filters
        </Button>
      )}
    </Stack>
  );
}
