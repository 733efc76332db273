import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { GridColDef } from '@mui/x-data-grid';
import { useDecideHeldVotesMutation, useGetSuspiciousQuery, type Campaign, type SuspiciousVoter } from '../../api/campaigns-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-fields';
import { DateTimeText } from '../../components/grid-columns';
import { PagedGrid } from '../../components/paged-grid';
import { TotalCount } from '../../components/transactions/total-count';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { serverMessage, useSubmit } from '../../components/use-submit';
import { ALL_ROUNDS, withPlus } from '../../domain/campaigns';
import { formatDateTime } from '../../domain/format';
import { choiceFilter } from '../../domain/list-view';
import { isManager } from '../../domain/roles';
import { voteRejectSchema } from '../../domain/schemas/vote-integrity';
import { selectSessionUser } from '../../state/session-slice';
import { useAppSelector } from '../../state/hooks';
import { VoteAnomaly } from './vote-flag-chips';

export interface SuspiciousScreenProps {
  campaign: Pick<Campaign, 'key' | 'name' | 'rounds'>;
}

const votesText = (n: number) => `${n} held vote${n === 1 ? '' : 's'}`;

/**
 * Vote integrity: a campaign's flagged numbers in a round (or every round), most votes first, with
 * their peak per minute, flags and held votes. An admin or super-user releases a number's held
 * votes (they count from now on) or rejects them with a reason (they never count); the account
 * limited to one campaign reads the list only, as the API lets it.
 */
export default function SuspiciousScreen({ campaign }: SuspiciousScreenProps) {
  const user = useAppSelector(selectSessionUser);
  const canDecide = isManager(user?.role) && !user?.isAfcon;
  const filters = useMemo(() => ({ round: choiceFilter([ALL_ROUNDS, ...campaign.rounds.map((r) => r.key)], ALL_ROUNDS) }), [campaign.rounds]);
  const list = usePagedGrid({ filters, pageSize: 50 });
  const { round } = list.filters;
  const query = useGetSuspiciousQuery({ key: campaign.key, round, page: list.page, limit: list.pageSize });
  useLoadToast(query, 'Suspicious voters');
  const [decide] = useDecideHeldVotesMutation();
  const submit = useSubmit();
  const [releasing, setReleasing] = useState<SuspiciousVoter | null>(null);
  const [rejecting, setRejecting] = useState<SuspiciousVoter | null>(null);
  const [busy, setBusy] = useState(false);
  // A decision on one round's votes names it; on 'every round' it takes the number's held votes of all rounds.
  const roundOfDecision = round === ALL_ROUNDS ? {} : { round };

  const release = async () => {
    if (!releasing) return;
    setBusy(true);
    const done = await submit(() => decide({ key: campaign.key, phoneNumber: releasing.phoneNumber, decision: 'release', ...roundOfDecision }).unwrap(), {
      success: `${votesText(releasing.heldVotes)} of ${withPlus(releasing.phoneNumber)} released`,
      failure: serverMessage,
    });
    setBusy(false);
    if (done) setReleasing(null);
  };

  const columns = useMemo<GridColDef<SuspiciousVoter>[]>(
    () => [
      { field: 'phoneNumber', headerName: 'Phone number', flex: 1, minWidth: 130, sortable: false },
      { field: 'votes', headerName: 'Votes', width: 80, sortable: false, type: 'number', align: 'left', headerAlign: 'left' },
      {
        field: 'anomaly',
        headerName: 'Anomaly',
        flex: 1.2,
        minWidth: 170,
        sortable: false,
        valueGetter: (_value, row) => [`${row.peakPerMinute}/min`, ...row.flags].join(' '),
        renderCell: ({ row }) => <VoteAnomaly peakPerMinute={row.peakPerMinute} flags={row.flags} />,
      },
      { field: 'heldVotes', headerName: 'Held', width: 70, sortable: false, type: 'number', align: 'left', headerAlign: 'left' },
      {
        field: 'lastVoteAt',
        headerName: 'Last vote',
        flex: 1,
        minWidth: 150,
        sortable: false,
        valueFormatter: (value: string) => formatDateTime(value),
        renderCell: ({ formattedValue }) => <DateTimeText text={String(formattedValue ?? '')} />,
      },
      ...(canDecide
        ? [
            {
              field: 'action',
              headerName: 'Action',
              width: 200,
              sortable: false,
              renderCell: ({ row }) =>
                row.heldVotes > 0 ? (
                  <Stack direction="row" spacing={1} sx={{ py: 0.5, '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
                    <Button size="small" variant="outlined" aria-label={`Release the held votes of ${row.phoneNumber}`} onClick={() => setReleasing(row)}>
                      Release
                    </Button>
                    <Button size="small" variant="outlined" color="error" aria-label={`Reject the held votes of ${row.phoneNumber}`} onClick={() => setRejecting(row)}>
                      Reject
                    </Button>
                  </Stack>
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    None held
                  </Typography>
                ),
            } satisfies GridColDef<SuspiciousVoter>,
          ]
        : []),
    ],
    [canDecide],
  );

  const grid = list.gridProps(query);
  const title = `${campaign.name} Suspicious Numbers`;
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {`${title} `}
        <TotalCount total={grid.rowCount} />
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField select size="small" label="Round" value={round} onChange={(e) => list.setFilters({ round: e.target.value })} sx={{ minWidth: 160 }}>
          <MenuItem value={ALL_ROUNDS}>Every round</MenuItem>
          {campaign.rounds.map((r) => (
            <MenuItem key={r.key} value={r.key}>
              {r.label}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => query.refetch()} disabled={query.isFetching}>
          Refresh
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Numbers with a flag: more votes in a minute than the campaign allows, 80% of a round&apos;s cap, or part of a burst of new numbers. Held votes are paid but left
        out of the rankings and results until released; a number stays listed while any are held.
      </Typography>
      <PagedGrid label={title} columns={columns} getRowId={(row) => row.phoneNumber} gridKey="campaign-suspicious" {...grid} />
      <ConfirmDialog
        open={releasing !== null}
        id="release-held-votes"
        title={releasing ? `Release ${votesText(releasing.heldVotes)} of ${withPlus(releasing.phoneNumber)}?` : 'Release'}
        text="They count in the rankings and results from now on."
        confirmLabel="Release"
        busyLabel="Releasing"
        busy={busy}
        onConfirm={() => void release()}
        onClose={() => setReleasing(null)}
      />
      <FormDialog
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
        title={rejecting ? `Reject ${votesText(rejecting.heldVotes)} of ${withPlus(rejecting.phoneNumber)}` : 'Reject'}
        subtitle="Rejected votes never count. The customer paid: a refund can be requested from Refunds."
        schema={voteRejectSchema}
        initialValues={{ reason: '' }}
        submitLabel="Reject"
        onSubmit={async ({ reason }, helpers) =>
          rejecting
            ? submit(() => decide({ key: campaign.key, phoneNumber: rejecting.phoneNumber, decision: 'reject', reason: reason.trim(), ...roundOfDecision }).unwrap(), {
                success: `${votesText(rejecting.heldVotes)} of ${withPlus(rejecting.phoneNumber)} rejected`,
                failure: serverMessage,
                helpers,
              })
            : false
        }
      >
        <FormTextField name="reason" label="Reason" multiline minRows={2} autoFocus />
      </FormDialog>
    </>
  );
}
