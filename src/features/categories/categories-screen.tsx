import { Suspense, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetCategoriesQuery } from '../../api/categories-api';
import { PageFallback } from '../../app/root-layout';
import { createdAtColumn, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-named';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadErrorToast } from '../../components/use-load-error-toast';
import { useServerGrid } from '../../components/use-server-grid';
import { CATEGORY_LEVELS, categoryLevelLabel } from '../../domain/category-levels';
import type { Category } from '../../domain/entities';
import { formatMoney } from '../../domain/format';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./category-form');
const CreateCategoryForm = lazyNamed(loadForms, 'CreateCategoryForm');
const EditCategoryDialog = lazyNamed(loadForms, 'EditCategoryDialog');

type CategoryTab = 'all' | 'new';

export default function CategoriesScreen() {
  const location = useLocation();
  const [tab, setTab] = useState<CategoryTab>(location.pathname === '/categories/new' ? 'new' : 'all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Category | null>(null);
  const query = useGetCategoriesQuery({ page });
  const grid = useServerGrid(query, page, setPage);
  useLoadErrorToast(query.isError);

  const columns = useMemo<GridColDef<Category>[]>(
    () => [
      { field: 'name', headerName: 'Name', minWidth: 160, flex: 1 },
      ...CATEGORY_LEVELS.map(
        (level): GridColDef<Category> => ({
          field: level,
          headerName: categoryLevelLabel(level),
          width: 120,
          type: 'number',
          valueFormatter: (value: number | null | undefined) => formatMoney(value),
        }),
      ),
      { field: 'user', headerName: 'Agent', width: 140, valueGetter: (_value, row) => row.user?.userName ?? '' },
      createdAtColumn<Category>(),
      editColumn<Category>({ label: (row) => row.name, onEdit: setEditing }),
    ],
    [],
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Categories
      </Typography>
      <Tabs value={tab} onChange={(_event, next: CategoryTab) => setTab(next)} aria-label="Categories">
        <Tab value="all" label="All" />
        <Tab value="new" label="Create new category" />
      </Tabs>
      {tab === 'all' ? (
        <PagedGrid<Category> columns={columns} {...grid} gridKey="categories" label="Categories" />
      ) : (
        <Suspense fallback={<PageFallback />}>
          <CreateCategoryForm />
        </Suspense>
      )}
      {editing && (
        <Suspense fallback={null}>
          <EditCategoryDialog category={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
