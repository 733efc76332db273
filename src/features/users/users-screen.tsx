import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetUsersQuery } from '../../api/users-api';
import { CellButton, CellChip } from '../../components/cell-controls';
import { createdAtColumn, DATE_TIME_MIN_WIDTH, DateTimeText, editColumn } from '../../components/grid-columns';
import { lazyNamed } from '../../components/lazy-import';
import { ListCreateTabs, type ListCreateTab } from '../../components/list-create-tabs';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { usePagedGrid } from '../../components/use-paged-grid';
import type { User } from '../../domain/entities';
import { formatDateTime } from '../../domain/format';
import { isEditableRole, roleLabel } from '../../domain/roles';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { AccountStatusDialog } from './account-status-dialog';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';

// The forms (Formik, yup and the fields) load when their tab or dialog opens, not with the list.
const loadForms = () => import('./user-forms');
const CreateUserForm = lazyNamed(loadForms, 'CreateUserForm');
const EditUserDialog = lazyNamed(loadForms, 'EditUserDialog');

/** SPEC §2 users: list with Edit (disabled for admin and super-user), Disable/Enable (any account but one's own) and the create form. */
export default function UsersScreen() {
  const [tab, setTab] = useState<ListCreateTab>('all');
  const list = usePagedGrid({ filters: {} });
  const [editing, setEditing] = useState<User | null>(null);
  const [switching, setSwitching] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const myId = useAppSelector(selectSessionUser)?.id;
  const query = useGetUsersQuery({ page: list.page }, { skip: tab !== 'all' });
  const grid = list.gridProps(query);
  useLoadToast(query, 'Users');

  const columns = useMemo<GridColDef<User>[]>(() => {
    const edit = editColumn<User>({
      label: (row) => row.userName,
      onEdit: setEditing,
      disabledReason: (row) => (isEditableRole(row.role) ? null : 'Admins and super-users cannot be edited here'),
      field: 'action',
      headerName: 'Action',
      variant: 'outlined',
    });
    const accessButton = (row: User) => {
      const own = row._id === myId;
      const button = (
        <CellButton variant="outlined" color={row.disabled ? 'primary' : 'error'} aria-label={`${row.disabled ? 'Enable' : 'Disable'} ${row.userName}`} disabled={own} onClick={() => setSwitching(row)}>
          {row.disabled ? 'Enable' : 'Disable'}
        </CellButton>
      );
      return own ? (
        <Tooltip title="You cannot disable your own account" describeChild>
          {button}
        </Tooltip>
      ) : (
        button
      );
    };
    return [
      { field: 'userName', headerName: 'Username', flex: 1, minWidth: 140 },
      createdAtColumn<User>('Created'),
      { field: 'role', headerName: 'Role', width: 120, valueFormatter: (value: string) => roleLabel(value) },
      {
        field: 'disabled',
        headerName: 'Status',
        width: 96,
        renderCell: ({ row }) => <CellChip label={row.disabled ? 'Disabled' : 'Active'} color={row.disabled ? 'error' : 'success'} />,
      },
      {
        field: 'lastSignInAt',
        headerName: 'Last sign-in',
        minWidth: DATE_TIME_MIN_WIDTH,
        flex: 1,
        valueFormatter: (value: string | null) => (value ? formatDateTime(value) : 'Never'),
        renderCell: ({ formattedValue }) => <DateTimeText text={String(formattedValue ?? '')} />,
      },
      {
        field: 'twoFactorEnabled',
        headerName: '2FA',
        width: 100,
        renderCell: ({ row }) =>
          row.twoFactorEnabled && row._id !== myId ? (
            <span>
              On{' '}
              <CellButton variant="text" aria-label={`Reset two-factor sign-in of ${row.userName}`} onClick={() => setResetting(row)}>
                Reset
              </CellButton>
            </span>
          ) : (
            <span>{row.twoFactorEnabled ? 'On' : 'Off'}</span>
          ),
      },
      {
        ...edit,
        // Edit and Disable/Enable share the column, so every column fits 1280 px.
        width: 190,
        renderCell: (params) => (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', height: '100%' }}>
            {edit.renderCell?.(params)}
            {accessButton(params.row)}
          </Box>
        ),
      },
    ];
  }, [myId]);

  return (
    <ListCreateTabs
      title="Users"
      createLabel="Create new account"
      tab={tab}
      onTabChange={setTab}
      list={<PagedGrid columns={columns} {...grid} gridKey="users" label="Users" />}
      createForm={<CreateUserForm />}
      editDialog={
        <>
          {editing && <EditUserDialog user={editing} onClose={() => setEditing(null)} />}
          <AccountStatusDialog user={switching} onClose={() => setSwitching(null)} />
          <ResetTwoFactorDialog user={resetting} onClose={() => setResetting(null)} />
        </>
      }
    />
  );
}
