import { useMemo, useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetServiceCodesQuery } from '../../api/service-codes-api';
import { createdAtColumn, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-import';
import { ListCreateTabs, type ListCreateTab } from '../../components/list-create-tabs';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { usePagedGrid } from '../../components/use-paged-grid';
import type { ServiceCode } from '../../domain/entities';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./service-code-form');
const CreateServiceCodeForm = lazyNamed(loadForms, 'CreateServiceCodeForm');
const EditServiceCodeDialog = lazyNamed(loadForms, 'EditServiceCodeDialog');

export default function ServiceCodesScreen() {
  const [tab, setTab] = useState<ListCreateTab>('all');
  const list = usePagedGrid({ filters: {} });
  const [editing, setEditing] = useState<ServiceCode | null>(null);
  const query = useGetServiceCodesQuery({ page: list.page });
  const grid = list.gridProps(query);
  useLoadToast(query, 'Service codes');

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
    <ListCreateTabs
      title="Service codes"
      createLabel="Register service codes"
      tab={tab}
      onTabChange={setTab}
      list={<PagedGrid<ServiceCode> columns={columns} {...grid} gridKey="service-codes" label="Service codes" />}
      createForm={<CreateServiceCodeForm />}
      editDialog={editing && <EditServiceCodeDialog serviceCode={editing} onClose={() => setEditing(null)} />}
    />
  );
}
