import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { GridColDef } from '@mui/x-data-grid';
import { useGetVoterVotesQuery } from '../../api/campaigns-api';
import { PagedGrid } from '../../components/paged-grid';
import { DateTimeText } from '../../components/grid-columns';
import { voteGame, withPlus, type RankingRound } from '../../domain/campaigns';
import type { VoteRow, VoteTransaction } from '../../domain/entities';
import { formatDateTime } from '../../domain/format';

/** A ranking row carries its 50 newest votes, the first page of the votes call at this size. */
const VOTES_PER_PAGE = 50;

/**
 * `narrow`: a phone's full-screen dialog. Fixed widths that add up to less than 390 px less the
 * dialog's padding, so the table never scrolls sideways; long values wrap (PagedGrid).
 */
const columnsFor = (narrow: boolean): GridColDef<VoteTransaction>[] => [
  {
    field: 'createdAt',
    headerName: 'Date',
    ...(narrow ? { width: 96 } : { flex: 1.2, minWidth: 215 }),
    sortable: false,
    valueFormatter: (value: string) => formatDateTime(value),
    renderCell: ({ formattedValue }) => <DateTimeText text={String(formattedValue ?? '')} />,
  },
  { field: 'game', headerName: 'Game', ...(narrow ? { width: 96 } : { flex: 1.2, minWidth: 170 }), sortable: false, valueGetter: (_value, row) => voteGame(row) },
  { field: 'teamName', headerName: 'Team', ...(narrow ? { width: 92 } : { flex: 1, minWidth: 120 }), sortable: false },
];
const WIDE_COLUMNS = columnsFor(false);
const NARROW_COLUMNS = columnsFor(true);

export interface VotesDialogProps {
  campaignKey: string;
  round: RankingRound;
  voter: VoteRow;
  onClose: () => void;
}

/** SPEC §2 'View more': one voter's team selections, newest first; pages past the row's own 50 come from the votes call. */
export function VotesDialog({ campaignKey, round, voter, onClose }: VotesDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const [page, setPage] = useState(1);
  const fromRow = page === 1 && (voter.transactions.length >= voter.count || voter.transactions.length >= VOTES_PER_PAGE);
  const votes = useGetVoterVotesQuery(
    { key: campaignKey, phoneNumber: voter.phoneNumber, round, page, limit: VOTES_PER_PAGE },
    { skip: fromRow },
  );
  const rows = useMemo(() => (fromRow ? voter.transactions : votes.isError ? [] : (votes.data?.docs ?? [])), [fromRow, voter.transactions, votes.isError, votes.data]);
  return (
    // No scroll lock: locking the page's scroll pads the body by the scrollbar's width, which resizes
    // the ranking's grid behind the dialog and redraws its 50 rows on every open and close.
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} disableScrollLock aria-labelledby="votes-dialog-title">
      <DialogTitle id="votes-dialog-title">Team selection by user</DialogTitle>
      <DialogContent sx={fullScreen ? { px: 1 } : undefined}>
        <Stack direction="row" spacing={3} sx={{ mb: 2, flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {withPlus(voter.phoneNumber)}
          </Typography>
          <Typography variant="subtitle1">Total: {voter.count}</Typography>
        </Stack>
        {votes.isError && !fromRow && <Typography color="error">Unexpected error</Typography>}
        <PagedGrid
          label="Team selections"
          columns={fullScreen ? NARROW_COLUMNS : WIDE_COLUMNS}
          rows={rows}
          rowCount={voter.count}
          loading={!fromRow && votes.isFetching}
          page={page}
          pageSize={VOTES_PER_PAGE}
          onPageChange={setPage}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
