import { Suspense, useMemo, useState } from 'react';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetServiceCodesQuery } from '../../api/service-codes-api';
import { PageFallback } from '../../app/root-layout';
import { createdAtColumn, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-named';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadErrorToast } from '../../components/use-load-error-toast';
import { useServerGrid } from '../../components/use-server-grid';
import type { ServiceCode } from '../../domain/entities';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./service-code-form');
const CreateServiceCodeForm = lazyNamed(loadForms, 'CreateServiceCodeForm');
const EditServiceCodeDialog = lazyNamed(loadForms, 'EditServiceCodeDialog');

type ServiceCodeTab = 'all' | 'new';

export default function ServiceCodesScreen() {
  const [tab, setTab] = useState<ServiceCodeTab>('all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ServiceCode | null>(null);
  const query = useGetServiceCodesQuery({ page });
  const grid = useServerGrid(query, page, setPage);
  useLoadErrorToast(query.isError);

  const columns = useMemo<GridColDef<ServiceCode>[]>(
    () => [
      { field: 'name', headerName: 'Code', minWidth: 120, flex: 1 },
      { field: 'category', headerName: 'Category', minWidth: 160, flex: 1, valueGetter: (_value, row) => row.category?.name ?? '' },
      { field: 'agent', headerName: 'Agent', minWidth: 140, flex: 1, valueGetter: (_value, row) => row.category?.user?.userName ?? '' },
      createdAtColumn<ServiceCode>(),
      editColumn<ServiceCode>({ label: (row) => row.name, onEdit: setEditing }),
    ],
    [],
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Service codes
      </Typography>
      <Tabs value={tab} onChange={(_event, next: ServiceCodeTab) => setTab(next)} aria-label="Service codes">
        <Tab value="all" label="All" />
        <Tab value="new" label="Register service codes" />
      </Tabs>
      {tab === 'all' ? (
        <PagedGrid<ServiceCode> columns={columns} {...grid} gridKey="service-codes" label="Service codes" />
      ) : (
        <Suspense fallback={<PageFallback />}>
          <CreateServiceCodeForm />
        </Suspense>
      )}
      {editing && (
        <Suspense fallback={null}>
          <EditServiceCodeDialog serviceCode={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
