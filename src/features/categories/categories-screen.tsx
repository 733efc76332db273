import { useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetCategoriesQuery } from '../../api/categories-api';
import { createdAtColumn, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-import';
import { ListCreateTabs, type ListCreateTab } from '../../components/list-create-tabs';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { usePagedGrid } from '../../components/use-paged-grid';
import { CATEGORY_LEVELS, categoryLevelLabel } from '../../domain/category-levels';
import type { Category } from '../../domain/entities';
import { formatMoney } from '../../domain/format';
import { CategoryPrices, priceSummary } from './category-prices';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./category-form');
const CreateCategoryForm = lazyNamed(loadForms, 'CreateCategoryForm');
const EditCategoryDialog = lazyNamed(loadForms, 'EditCategoryDialog');

/** The level columns start hidden: the Prices column sums them up and opens them all. */
const LEVEL_COLUMNS_HIDDEN = Object.fromEntries(CATEGORY_LEVELS.map((level) => [level, false]));

export default function CategoriesScreen() {
  const location = useLocation();
  const [tab, setTab] = useState<ListCreateTab>(location.pathname === '/categories/new' ? 'new' : 'all');
  const list = usePagedGrid({ filters: {} });
  const [editing, setEditing] = useState<Category | null>(null);
  const query = useGetCategoriesQuery({ page: list.page });
  const grid = list.gridProps(query);
  useLoadToast(query, 'Categories');

  const columns = useMemo<GridColDef<Category>[]>(
    () => [
      { field: 'name', headerName: 'Name', minWidth: 160, flex: 1 },
      {
        field: 'prices',
        headerName: 'Prices',
        minWidth: 290,
        flex: 1.4,
        sortable: false,
        valueGetter: (_value, row) => priceSummary(row),
        renderCell: ({ row }) => <CategoryPrices category={row} />,
      },
      { field: 'user', headerName: 'Agent', width: 140, valueGetter: (_value, row) => row.user?.userName ?? '' },
      createdAtColumn<Category>(),
      editColumn<Category>({ label: (row) => row.name, onEdit: setEditing }),
      // SPEC's column per level, hidden until chosen under 'Manage columns'; after Edit, so that
      // showing them keeps Name, Agent, Created_at and Edit in view.
      ...CATEGORY_LEVELS.map(
        (level): GridColDef<Category> => ({
          field: level,
          headerName: categoryLevelLabel(level),
          // A long label ('Single & corporate') gets the room to be read whole.
          width: categoryLevelLabel(level).length > 14 ? 140 : 120,
          type: 'number',
          valueFormatter: (value: number | null | undefined) => formatMoney(value),
        }),
      ),
    ],
    [],
  );

  return (
    <ListCreateTabs
      title="Categories"
      createLabel="Create new category"
      tab={tab}
      onTabChange={setTab}
      list={<PagedGrid<Category> columns={columns} {...grid} gridKey="categories" label="Categories" defaultColumnVisibility={LEVEL_COLUMNS_HIDDEN} />}
      createForm={<CreateCategoryForm />}
      editDialog={editing && <EditCategoryDialog category={editing} onClose={() => setEditing(null)} />}
    />
  );
}
