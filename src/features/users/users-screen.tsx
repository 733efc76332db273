import { useMemo, useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetUsersQuery } from '../../api/users-api';
import { createdAtColumn, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-import';
import { ListCreateTabs, type ListCreateTab } from '../../components/list-create-tabs';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { usePagedGrid } from '../../components/use-paged-grid';
import type { User } from '../../domain/entities';
import { isEditableRole, roleLabel } from '../../domain/roles';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./user-forms');
const CreateUserForm = lazyNamed(loadForms, 'CreateUserForm');
const EditUserDialog = lazyNamed(loadForms, 'EditUserDialog');

/** SPEC §2 users: list with Edit (disabled for admin and super-user) and the create form. */
export default function UsersScreen() {
  const [tab, setTab] = useState<ListCreateTab>('all');
  const list = usePagedGrid({ filters: {} });
  const [editing, setEditing] = useState<User | null>(null);
  const query = useGetUsersQuery({ page: list.page }, { skip: tab !== 'all' });
  const grid = list.gridProps(query);
  useLoadToast(query, 'Users');

  const columns = useMemo<GridColDef<User>[]>(
    () => [
      { field: 'userName', headerName: 'Username', flex: 1, minWidth: 160 },
      createdAtColumn<User>('Created'),
      { field: 'role', headerName: 'Role', width: 130, valueFormatter: (value: string) => roleLabel(value) },
      editColumn<User>({
        label: (row) => row.userName,
        onEdit: setEditing,
        disabledReason: (row) => (isEditableRole(row.role) ? null : 'Admins and super-users cannot be edited here'),
        field: 'action',
        headerName: 'Action',
        width: 110,
        variant: 'outlined',
      }),
    ],
    [],
  );

  return (
    <ListCreateTabs
      title="Users"
      createLabel="Create new account"
      tab={tab}
      onTabChange={setTab}
      list={<PagedGrid columns={columns} {...grid} gridKey="users" label="Users" />}
      createForm={<CreateUserForm />}
      editDialog={editing && <EditUserDialog user={editing} onClose={() => setEditing(null)} />}
    />
  );
}
