import { Suspense, useMemo, useState } from 'react';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetUsersQuery } from '../../api/users-api';
import { PageFallback } from '../../app/root-layout';
import { createdAtColumn, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-named';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadErrorToast } from '../../components/use-load-error-toast';
import { useServerGrid } from '../../components/use-server-grid';
import type { User } from '../../domain/entities';
import { isEditableRole, roleLabel } from '../../domain/roles';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./user-forms');
const CreateUserForm = lazyNamed(loadForms, 'CreateUserForm');
const EditUserDialog = lazyNamed(loadForms, 'EditUserDialog');

type UsersTab = 'all' | 'new';

/** SPEC §2 users: list with Edit (disabled for admin and super-user) and the create form. */
export default function UsersScreen() {
  const [tab, setTab] = useState<UsersTab>('all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<User | null>(null);
  const query = useGetUsersQuery({ page }, { skip: tab !== 'all' });
  const grid = useServerGrid(query, page, setPage);
  useLoadErrorToast(query.isError);

  const columns = useMemo<GridColDef<User>[]>(
    () => [
      { field: 'userName', headerName: 'Username', flex: 1, minWidth: 160 },
      createdAtColumn<User>('Created', 220),
      { field: 'role', headerName: 'Role', width: 130, valueFormatter: (value: string) => roleLabel(value) },
      editColumn<User>({
        label: (row) => row.userName,
        onEdit: setEditing,
        disabled: (row) => !isEditableRole(row.role),
        field: 'action',
        headerName: 'Action',
        width: 110,
        variant: 'outlined',
      }),
    ],
    [],
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Users
      </Typography>
      <Tabs value={tab} onChange={(_event, value: UsersTab) => setTab(value)} aria-label="Users">
        <Tab value="all" label="All" />
        <Tab value="new" label="Create new account" />
      </Tabs>
      {tab === 'all' ? (
        <PagedGrid columns={columns} {...grid} gridKey="users" label="Users" />
      ) : (
        <Suspense fallback={<PageFallback />}>
          <CreateUserForm />
        </Suspense>
      )}
      {editing && (
        <Suspense fallback={null}>
          <EditUserDialog user={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
