import { useMemo } from 'react';
import Button from '@mui/material/Button';
import type { GridColDef } from '@mui/x-data-grid';
import type { VoteRow } from '../../domain/entities';
import { PagedGrid } from '../../components/paged-grid';
import type { PagedGridState } from '../../components/use-paged-grid';
import { VoteAnomaly } from './vote-flag-chips';

export interface RankingTableProps {
  label: string;
  /** The ranking's page, from usePagedGrid's gridProps. */
  grid: PagedGridState<VoteRow>;
  onViewMore: (row: VoteRow) => void;
}

/** SPEC §2 ranking: #, phone number, service code, Votes, the anomaly (peak per minute and flags) and 'View more', 50 per page. */
export function RankingTable({ label, grid, onViewMore }: RankingTableProps) {
  const columns = useMemo<GridColDef<VoteRow>[]>(
    () => [
      { field: 'phoneNumber', headerName: 'Phone number', flex: 1, minWidth: 140, sortable: false },
      { field: 'serviceCode', headerName: 'Service code', flex: 1, minWidth: 110, sortable: false },
      { field: 'count', headerName: 'Votes', width: 90, sortable: false, type: 'number', align: 'left', headerAlign: 'left' },
      {
        field: 'anomaly',
        headerName: 'Anomaly',
        flex: 1,
        minWidth: 170,
        sortable: false,
        valueGetter: (_value, row) => [`${row.peakPerMinute ?? 0}/min`, ...(row.flags ?? [])].join(' '),
        renderCell: ({ row }) => <VoteAnomaly peakPerMinute={row.peakPerMinute} flags={row.flags} />,
      },
      {
        field: 'action',
        headerName: 'Action',
        width: 120,
        sortable: false,
        renderCell: ({ row }) => (
          <Button size="small" aria-label={`View more of ${row.phoneNumber}`} onClick={() => onViewMore(row)}>
            View more
          </Button>
        ),
      },
    ],
    [onViewMore],
  );
  return <PagedGrid label={label} columns={columns} gridKey="campaign-ranking" {...grid} />;
}
