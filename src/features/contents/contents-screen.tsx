import { useMemo, useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetContentsQuery } from '../../api/contents-api';
import { CellChip } from '../../components/cell-controls';
import { createdAtColumn, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-import';
import { ListCreateTabs, type ListCreateTab } from '../../components/list-create-tabs';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { usePagedGrid } from '../../components/use-paged-grid';
import { categoryLevelLabel } from '../../domain/category-levels';
import type { Content } from '../../domain/entities';
import { preview } from '../../domain/format';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./content-form');
const CreateContentForm = lazyNamed(loadForms, 'CreateContentForm');
const EditContentDialog = lazyNamed(loadForms, 'EditContentDialog');

/** SPEC §9: message preview 100 characters, description 20, each followed by '....' when cut. */
const MESSAGE_PREVIEW = 100;
const DESCRIPTION_PREVIEW = 20;

export default function ContentsScreen() {
  const [tab, setTab] = useState<ListCreateTab>('all');
  const list = usePagedGrid({ filters: {} });
  const [editing, setEditing] = useState<Content | null>(null);
  const query = useGetContentsQuery({ page: list.page });
  const grid = list.gridProps(query);
  useLoadToast(query, 'Contents');

  const columns = useMemo<GridColDef<Content>[]>(
    () => [
      createdAtColumn<Content>(),
      { field: 'createdBy', headerName: 'Created By', width: 110, valueGetter: (_value, row) => row.createdBy?.userName ?? '' },
      { field: 'category', headerName: 'Category', width: 120, valueGetter: (_value, row) => row.category?.name ?? '' },
      { field: 'categoryLevel', headerName: 'Class', width: 100, valueFormatter: (value: string) => categoryLevelLabel(value) },
      { field: 'message', headerName: 'message', minWidth: 200, flex: 2, valueFormatter: (value: string) => preview(value, MESSAGE_PREVIEW) },
      { field: 'description', headerName: 'Description', minWidth: 140, flex: 1, valueFormatter: (value: string | null) => preview(value, DESCRIPTION_PREVIEW) },
      {
        field: 'active',
        headerName: 'Status',
        width: 90,
        renderCell: ({ row }) => <CellChip label={row.active ? 'active' : 'in-active'} color={row.active ? 'success' : 'default'} />,
      },
      editColumn<Content>({ label: (row) => preview(row.message, 30), onEdit: setEditing }),
    ],
    [],
  );

  return (
    <ListCreateTabs
      title="Contents"
      createLabel="Create new content"
      tab={tab}
      onTabChange={setTab}
      list={<PagedGrid<Content> columns={columns} {...grid} gridKey="contents" label="Contents" />}
      createForm={<CreateContentForm />}
      editDialog={editing && <EditContentDialog content={editing} onClose={() => setEditing(null)} />}
    />
  );
}
