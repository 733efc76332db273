import { useMemo, useState } from 'react';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetSmsMessagesQuery } from '../../api/sms-api';
import { createdAtColumn } from '../../components/grid-columns';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { usePagedGrid } from '../../components/use-paged-grid';
import { categoryLevelLabel } from '../../domain/category-levels';
import type { SmsRecord, SmsStatus } from '../../domain/entities';
import { SmsComposeForm } from './sms-compose-form';

type SmsTab = 'compose' | 'all';

const STATUS_COLORS: Record<SmsStatus, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  sent: 'info',
  delivered: 'success',
  failed: 'error',
};

export default function SmsScreen() {
  const [tab, setTab] = useState<SmsTab>('compose');
  const list = usePagedGrid({ filters: {} });
  const query = useGetSmsMessagesQuery({ page: list.page });
  const grid = list.gridProps(query);
  useLoadToast(query, 'Sent messages');

  // SPEC §2: clicking either tab, even the one already open, reloads the list.
  const openTab = (next: SmsTab) => {
    setTab(next);
    void query.refetch();
  };

  const columns = useMemo<GridColDef<SmsRecord>[]>(
    () => [
      { field: 'user', headerName: 'By', width: 130, valueGetter: (_value, row) => row.user?.userName ?? '' },
      createdAtColumn<SmsRecord>(),
      { field: 'phoneNumber', headerName: 'phoneNumber', width: 140 },
      { field: 'message', headerName: 'message', minWidth: 240, flex: 2 },
      { field: 'categoryLevel', headerName: 'category Level', width: 140, valueFormatter: (value: string | null) => (value ? categoryLevelLabel(value) : '') },
      {
        field: 'status',
        headerName: 'Status',
        width: 110,
        renderCell: ({ row }) => <Chip size="small" label={row.status} color={STATUS_COLORS[row.status] ?? 'default'} />,
      },
    ],
    [],
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Sms
      </Typography>
      <Tabs value={tab} aria-label="Sms">
        <Tab value="compose" label="Compose" onClick={() => openTab('compose')} />
        <Tab value="all" label="All" onClick={() => openTab('all')} />
      </Tabs>
      {/* Compose keeps the history below the form, so a sent message shows up at once. */}
      {tab === 'compose' && <SmsComposeForm />}
      <PagedGrid<SmsRecord> columns={columns} {...grid} gridKey="sms" label="Sent messages" />
    </Stack>
  );
}
