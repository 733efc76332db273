import { useDeferredValue, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import type { GridColDef, GridRenderCellParams, GridRowId, GridValidRowModel } from '@mui/x-data-grid';
import { ListSpinner } from './list-spinner';
import { visuallyHidden } from './visually-hidden';
import { FOCUSED_ROW_CLASS, ROW_NUMBER_FIELD, type CardLayout, type PagedViewProps } from './paged-view';

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
 * user's 5 lines are 119 px high; a laid-out call card (CardLayout) is about 120 px.
 */
const LINE_HEIGHT_GUESS = 24;

type Column<R extends GridValidRowModel> = GridColDef<R>;

/** A card's columns by place: the head line (number, title, aside) and the pairs after it. */
function placeColumns<R extends GridValidRowModel>(shown: Column<R>[], card: CardLayout) {
  const inHead = (column: Column<R>) => column.field === ROW_NUMBER_FIELD || column.field === card.title || card.aside.includes(column.field);
  const byField = (field: string) => shown.filter((column) => column.field === field);
  return {
    head: [...byField(ROW_NUMBER_FIELD), ...byField(card.title), ...card.aside.flatMap(byField)],
    rest: shown.filter((column) => !inHead(column)),
  };
}

const headerOf = <R extends GridValidRowModel>(column: Column<R>) => column.headerName ?? column.field;

/**
 * PagedGrid's phone view: each row a card, with the same cells (chips, buttons) the grid draws;
 * one 'header: value' line per column, or, given a CardLayout, a head line and flowing pairs
 * (a call's card is about 120 px high instead of 250). A 412 px screen shows a whole row
 * without scrolling sideways, and the first visit on a phone skips the DataGrid's code and its
 * layout work. Plain elements under one class rule, as the grid cells.
 */
export default function PagedCards<R extends GridValidRowModel>({ columns, rows, loading, getRowId, columnVisibilityModel, label, card, focusedRowId, selection }: PagedViewProps<R>) {
  const shown = columns.filter((column) => columnVisibilityModel?.[column.field] !== false);
  const placed = card ? placeColumns(shown, card) : null;
  // New rows draw the first few cards at once and the rest in a background render that React
  // splits into short tasks: on a slow phone, 50 cards in one go block the page for a third of a
  // second. The rest lie below the screen, so nothing visible moves.
  const settledRows = useDeferredValue(rows);
  const drawnRows = settledRows === rows ? rows : rows.slice(0, FIRST_CARDS);
  const heightGuess = placed ? (1 + Math.ceil(placed.rest.length / 2)) * LINE_HEIGHT_GUESS : shown.length * LINE_HEIGHT_GUESS;
  return (
    <Box
      sx={{
        position: 'relative',
        minHeight: 120,
        '& > ul': { listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, opacity: loading ? 0.5 : 1 },
        // A card below the screen is neither laid out nor painted until it scrolls near: 50 cards
        // cost a slow phone the layout of the three it shows. Its height, until then,
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
          containIntrinsicBlockSize: `auto ${heightGuess}px`,
        },
        '& dl': { m: 0 },
        '& dt': { typography: 'caption', color: 'text.secondary' },
        '& dd': { typography: 'body2', m: 0, overflowWrap: 'anywhere', minWidth: 0 },
        '& .card-lines': { display: 'grid', gridTemplateColumns: 'minmax(84px, 34%) 1fr', columnGap: 1.5, rowGap: 0.5, alignItems: 'center' },
        '& .card-lines > div': { display: 'contents' },
        // The head: number, title (bold, taking the room) and the aside at the end of the line.
        // Its buttons go to a line of their own when they and the title do not fit one (a processed search
        // result's Ticket, Refund and Details), rather than covering the phone number.
        '& .card-head': { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, rowGap: 0.5, mb: 0.5 },
        '& .card-head > div': { display: 'flex', alignItems: 'center', gap: 0.5, flex: 'none' },
        '& .card-head > .card-title': { flex: '1 1 auto', minWidth: 0, fontWeight: 600 },
        [`& .card-head [data-field="${ROW_NUMBER_FIELD}"]`]: { color: 'text.secondary', '&::before': { content: '"#"' } },
        '& .card-pairs': { display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.25 },
        '& .card-pairs > div': { display: 'flex', alignItems: 'baseline', gap: 0.75, maxWidth: '100%' },
        '& .card-hidden': visuallyHidden,
        // The keyboard's card (the Failed queue): outlined and tinted in the primary colour, with a bar.
        [`& > ul > li.${FOCUSED_ROW_CLASS}`]: {
          borderColor: 'primary.main',
          outline: '1px solid',
          outlineColor: 'primary.main',
          boxShadow: (theme) => `inset 6px 0 0 ${theme.palette.primary.main}`,
          bgcolor: (theme) => alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.2 : 0.1),
        },
        '& .card-select-line': { display: 'flex', alignItems: 'flex-start', gap: 1, '& > dl': { flex: '1 1 auto', minWidth: 0 } },
        '& .card-select': { mt: 0.25, mx: 0, width: 20, height: 20, flex: 'none', accentColor: (theme) => theme.palette.primary.main },
        '& .paged-cards-empty': { typography: 'body2', color: 'text.secondary', textAlign: 'center', py: 5 },
      }}
    >
      <ul aria-label={label} aria-busy={loading}>
        {drawnRows.map((row) => {
          const id = getRowId(row);
          const focused = focusedRowId !== undefined && focusedRowId !== null && id === focusedRowId;
          const checkbox =
            selection && selection.isSelectable(row) ? (
              <input
                type="checkbox"
                className="card-select"
                aria-label={selection.label(row)}
                checked={selection.ids.includes(id)}
                onChange={(event) => selection.onChange(event.target.checked ? [...selection.ids, id] : selection.ids.filter((other) => other !== id))}
              />
            ) : null;
          const pair = (column: Column<R>, className?: string, hideHeader = false) => (
            <div key={column.field} className={className}>
              <dt className={hideHeader ? 'card-hidden' : undefined}>{headerOf(column)}</dt>
              <dd data-field={column.field}>{cellContent(column, row, id)}</dd>
            </div>
          );
          const head = (headColumns: Column<R>[], layout: CardLayout) => (
            <dl className="card-head">{headColumns.map((column) => pair(column, column.field === layout.title ? 'card-title' : undefined, true))}</dl>
          );
          return (
            <li key={id} data-id={id} className={focused ? FOCUSED_ROW_CLASS : undefined} aria-current={focused ? 'true' : undefined}>
              {placed && card ? (
                <>
                  {checkbox ? (
                    <div className="card-select-line">
                      {checkbox}
                      {head(placed.head, card)}
                    </div>
                  ) : (
                    head(placed.head, card)
                  )}
                  <dl className="card-pairs">{placed.rest.map((column) => pair(column))}</dl>
                </>
              ) : (
                <>
                  {checkbox}
                  <dl className="card-lines">{shown.map((column) => pair(column, undefined))}</dl>
                </>
              )}
            </li>
          );
        })}
      </ul>
      {!loading && rows.length === 0 && <div className="paged-cards-empty">No records</div>}
      {loading && <ListSpinner sx={{ position: 'absolute', inset: 0, alignItems: 'flex-start', pt: 5 }} />}
    </Box>
  );
}
