import { useDeferredValue, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import type { GridColDef, GridRenderCellParams, GridRowId, GridValidRowModel } from '@mui/x-data-grid';
import { ListSpinner } from './list-spinner';
import type { PagedViewProps } from './paged-view';

/**
 * One cell's content as the DataGrid would show it: valueGetter, then valueFormatter, then
 * renderCell. Our columns' getters, formatters and renderers read only the value and the row
 * (they never call the grid's api), so the params carry just those; the cast says so.
 */
export function cellContent<R extends GridValidRowModel>(column: GridColDef<R>, row: R, id: GridRowId): ReactNode {
  const raw = (row as Record<string, unknown>)[column.field];
  const value: unknown = column.valueGetter ? column.valueGetter(raw as never, row, column, undefined as never) : raw;
  const formattedValue: unknown = column.valueFormatter ? column.valueFormatter(value as never, row, column, undefined as never) : value;
  if (column.renderCell) {
    return column.renderCell({ id, field: column.field, row, value, formattedValue, colDef: column } as unknown as GridRenderCellParams<R>);
  }
  return formattedValue === null || formattedValue === undefined ? '' : String(formattedValue);
}

/** Cards drawn at once when rows arrive: more than a phone's screen holds. */
export const FIRST_CARDS = 6;
/**
 * A card's height per line, what an undrawn card counts for in the page's height: at 412 px a
 * transactions card's 10 lines are 238 px high, a user's 5 lines 119 px.
 */
const LINE_HEIGHT_GUESS = 24;

/**
 * PagedGrid's phone view: each row a card of 'header: value' lines, in the columns' order, with
 * the same cells (chips, buttons) the grid draws. A 412 px screen shows a whole row without
 * scrolling sideways, and the first visit on a phone skips the DataGrid's code and its layout
 * work (issue 11: Lighthouse mobile). Plain elements under one class rule, as the grid cells.
 */
export default function PagedCards<R extends GridValidRowModel>({ columns, rows, loading, getRowId, columnVisibilityModel, label }: PagedViewProps<R>) {
  const shown = columns.filter((column) => columnVisibilityModel?.[column.field] !== false);
  // New rows draw the first few cards at once and the rest in a background render that React
  // splits into short tasks: on a slow phone, 50 cards in one go block the page for a third of a
  // second (issue 11, Lighthouse). The rest lie below the screen, so nothing visible moves.
  const settledRows = useDeferredValue(rows);
  const drawnRows = settledRows === rows ? rows : rows.slice(0, FIRST_CARDS);
  return (
    <Box
      sx={{
        position: 'relative',
        minHeight: 120,
        '& > ul': { listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, opacity: loading ? 0.5 : 1 },
        // A card below the screen is neither laid out nor painted until it scrolls near: 50 cards
        // cost a slow phone the layout of the three it shows (issue 11). Its height, until then,
        // is the size it last had, or a guess from its lines.
        '& > ul > li': {
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          px: 1.5,
          py: 1,
          bgcolor: 'background.paper',
          contentVisibility: 'auto',
          // The height alone: a width guess would be the card's minimum width, and a card of 24
          // lines would be 576 px wide on a 412 px phone.
          containIntrinsicBlockSize: `auto ${shown.length * LINE_HEIGHT_GUESS}px`,
        },
        '& dl': { display: 'grid', gridTemplateColumns: 'minmax(84px, 34%) 1fr', columnGap: 1.5, rowGap: 0.5, m: 0, alignItems: 'center' },
        '& dt': { typography: 'caption', color: 'text.secondary' },
        '& dd': { typography: 'body2', m: 0, overflowWrap: 'anywhere', minWidth: 0 },
        '& .paged-cards-empty': { typography: 'body2', color: 'text.secondary', textAlign: 'center', py: 5 },
      }}
    >
      <ul aria-label={label} aria-busy={loading}>
        {drawnRows.map((row) => {
          const id = getRowId(row);
          return (
            <li key={id} data-id={id}>
              <dl>
                {shown.map((column) => (
                  <div key={column.field} style={{ display: 'contents' }}>
                    <dt>{column.headerName ?? column.field}</dt>
                    <dd data-field={column.field}>{cellContent(column, row, id)}</dd>
                  </div>
                ))}
              </dl>
            </li>
          );
        })}
      </ul>
      {!loading && rows.length === 0 && <div className="paged-cards-empty">No records</div>}
      {loading && <ListSpinner sx={{ position: 'absolute', inset: 0, alignItems: 'flex-start', pt: 5 }} />}
    </Box>
  );
}
