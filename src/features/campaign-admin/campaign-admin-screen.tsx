import { Suspense, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import type { GridColDef } from '@mui/x-data-grid';
import { useCloseCampaignMutation, usePublishCampaignMutation } from '../../api/campaign-admin-api';
import { useGetCampaignsQuery, type Campaign } from '../../api/campaigns-api';
import { AmountCell } from '../../components/amount-cell';
import { CellButton, CellChip, type CellColor } from '../../components/cell-controls';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { lazyNamed } from '../../components/lazy-import';
import { ListCreateTabs, type ListCreateTab } from '../../components/list-create-tabs';
import { PageFallback } from '../../components/page-fallback';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { serverMessage, useSubmit } from '../../components/use-submit';
import type { CampaignStatus } from '../../domain/campaign-rounds';
import { formatCount } from '../../domain/format';

// The form (Formik, yup, the fields and the preview) loads when it opens, not with the list.
const CampaignForm = lazyNamed(() => import('./campaign-form'), 'CampaignForm');

const STATUS_CHIP: Record<CampaignStatus, { label: string; color: CellColor }> = {
  draft: { label: 'Draft', color: 'default' },
  live: { label: 'Live', color: 'success' },
  closed: { label: 'Closed', color: 'info' },
};

type Pending = { action: 'publish' | 'close'; campaign: Campaign };

/** Every team another campaign uses, for the teams' type-ahead. */
function teamsOf(campaigns: Campaign[], except: string | null): string[] {
  const teams = new Set<string>();
  for (const campaign of campaigns) if (campaign.key !== except) campaign.teams.forEach((team) => teams.add(team));
  return [...teams].sort((a, b) => a.localeCompare(b));
}

/**
 * `/campaigns` (admin, super-user): every campaign with its status, votes and revenue; create and
 * edit one with a preview of its USSD screens; publish a draft, close a live one.
 */
export default function CampaignAdminScreen() {
  const [tab, setTab] = useState<ListCreateTab>('all');
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const query = useGetCampaignsQuery();
  useLoadToast(query, 'Campaigns');
  const [publish, publishing] = usePublishCampaignMutation();
  const [close, closing] = useCloseCampaignMutation();
  const submit = useSubmit();
  const campaigns = useMemo(() => (query.isError ? [] : (query.data ?? [])), [query.isError, query.data]);
  // The edited campaign as the list has it now: a round closed by hand shows at once.
  const editing = editingKey ? (campaigns.find((campaign) => campaign.key === editingKey) ?? null) : null;

  const columns = useMemo<GridColDef<Campaign>[]>(
    () => [
      { field: 'name', headerName: 'Name', minWidth: 160, flex: 1.4 },
      { field: 'key', headerName: 'Key', minWidth: 140, flex: 1.2 },
      { field: 'serviceCode', headerName: 'Service code', minWidth: 110, flex: 0.8 },
      {
        field: 'status',
        headerName: 'Status',
        width: 90,
        renderCell: ({ row }) => <CellChip label={STATUS_CHIP[row.status].label} color={STATUS_CHIP[row.status].color} />,
      },
      { field: 'rounds', headerName: 'Rounds', width: 76, align: 'right', headerAlign: 'right', valueGetter: (_value, row) => row.rounds.length },
      {
        field: 'totalVotes',
        headerName: 'Total votes',
        width: 100,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (value: number) => formatCount(value),
      },
      {
        field: 'revenue',
        headerName: 'Revenue',
        minWidth: 96,
        flex: 0.6,
        align: 'right',
        headerAlign: 'right',
        renderCell: ({ row }) => <AmountCell amount={row.revenue} paymentRef={null} />,
      },
      {
        field: 'actions',
        headerName: 'Actions',
        width: 150,
        sortable: false,
        renderCell: ({ row }) => (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', height: '100%' }}>
            <CellButton variant="outlined" aria-label={`Edit ${row.name}`} onClick={() => setEditingKey(row.key)}>
              Edit
            </CellButton>
            {row.status === 'draft' && (
              <CellButton variant="contained" aria-label={`Publish ${row.name}`} onClick={() => setPending({ action: 'publish', campaign: row })}>
                Publish
              </CellButton>
            )}
            {row.status === 'live' && (
              <CellButton variant="outlined" color="error" aria-label={`Close ${row.name}`} onClick={() => setPending({ action: 'close', campaign: row })}>
                Close
              </CellButton>
            )}
          </Box>
        ),
      },
    ],
    [],
  );

  const confirm = async () => {
    if (!pending) return;
    const { action, campaign } = pending;
    const done = await submit(() => (action === 'publish' ? publish(campaign.key) : close(campaign.key)).unwrap(), {
      success: action === 'publish' ? `Published ${campaign.name}: its code offers it now` : `Closed ${campaign.name}`,
      failure: serverMessage,
    });
    if (done) setPending(null);
  };

  const list = editing ? (
    <Suspense fallback={<PageFallback />}>
      <CampaignForm campaign={editing} teamSuggestions={teamsOf(campaigns, editing.key)} onSaved={() => setEditingKey(null)} onCancel={() => setEditingKey(null)} />
    </Suspense>
  ) : (
    <PagedGrid<Campaign>
      columns={columns}
      rows={campaigns}
      rowCount={campaigns.length}
      loading={query.isFetching}
      page={1}
      pageSize={Math.max(campaigns.length, 1)}
      onPageChange={() => undefined}
      getRowId={(row) => row.key}
      gridKey="campaign-admin"
      label="Campaigns"
      card={{ title: 'name', aside: ['status'] }}
    />
  );

  return (
    <ListCreateTabs
      title="Campaigns"
      createLabel="Create a campaign"
      tab={tab}
      onTabChange={(next) => {
        setEditingKey(null);
        setTab(next);
      }}
      list={list}
      createForm={<CampaignForm campaign={null} teamSuggestions={teamsOf(campaigns, null)} onSaved={() => setTab('all')} />}
      editDialog={
        <ConfirmDialog
          open={Boolean(pending)}
          id="campaign-status"
          title={pending?.action === 'publish' ? `Publish ${pending.campaign.name}?` : `Close ${pending?.campaign.name ?? ''}?`}
          text={
            pending?.action === 'publish'
              ? `The service code ${pending.campaign.serviceCode} offers it to voters from now on.`
              : 'Its code takes no more votes. Its votes, rankings and results stay.'
          }
          confirmLabel={pending?.action === 'publish' ? 'Publish' : 'Close campaign'}
          busyLabel={pending?.action === 'publish' ? 'Publishing' : 'Closing'}
          busy={publishing.isLoading || closing.isLoading}
          color={pending?.action === 'close' ? 'error' : 'primary'}
          onConfirm={() => void confirm()}
          onClose={() => setPending(null)}
        />
      }
    />
  );
}
