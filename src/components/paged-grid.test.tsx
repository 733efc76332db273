import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import type { GridColDef } from '@mui/x-data-grid';
import { setupStore } from '../state/store';
import { PHONE_QUERY } from '../domain/first-visit';
import { PagedGrid, type PagedGridProps } from './paged-grid';

type Row = { _id: string; name: string };
const columns: GridColDef<Row>[] = [{ field: 'name', headerName: 'Name', flex: 1 }];
const rowsOf = (n: number, from = 0): Row[] => Array.from({ length: n }, (_, i) => ({ _id: `id-${from + i}`, name: `row ${from + i}` }));

/** Renders the list and waits for its view: the DataGrid's code loads apart from the screens. */
async function renderGrid(props: Partial<PagedGridProps<Row>> = {}) {
  const onPageChange = jest.fn();
  render(
    <Provider store={setupStore()}>
      <PagedGrid<Row>
        columns={columns}
        rows={[]}
        rowCount={0}
        loading={false}
        page={1}
        pageSize={10}
        onPageChange={onPageChange}
        label="Things"
        {...props}
      />
    </Provider>,
  );
  if (!window.matchMedia?.(PHONE_QUERY)?.matches) await screen.findByRole('grid', { name: 'Things' });
  return { onPageChange, user: userEvent.setup() };
}

describe('PagedGrid', () => {
  it("says 'No records' when the list is empty", async () => {
    await renderGrid();
    expect(screen.getByText('No records')).toBeInTheDocument();
    expect(screen.getByText('Showing 0 out of 0 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows a spinner while loading', async () => {
    await renderGrid({ loading: true });
    const grid = screen.getByRole('grid', { name: 'Things' });
    // Shown, and said by aria-busy around the grid: a progressbar is no child a grid may have (axe).
    expect(grid.closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    expect(within(grid).getByRole('progressbar', { hidden: true })).toBeInTheDocument();
    expect(within(grid).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('numbers rows by page and moves one page at a time', async () => {
    const { onPageChange, user } = await renderGrid({ rows: rowsOf(10, 10), rowCount: 35, page: 2 });
    expect(screen.getByRole('row', { name: /^11 row 10$/ })).toBeInTheDocument();
    expect(screen.getByText('Showing 10 out of 35 entries')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPageChange).toHaveBeenLastCalledWith(3);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPageChange).toHaveBeenLastCalledWith(1);
  });

  it('never goes past the last page', async () => {
    await renderGrid({ rows: rowsOf(5, 30), rowCount: 35, page: 4 });
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });
});

describe('PagedGrid column menu', () => {
  it('offers only what works: no Filter (the API filters through each screen’s own fields)', async () => {
    const { user } = await renderGrid({ rows: rowsOf(3), rowCount: 3 });
    const header = screen.getByRole('columnheader', { name: /Name/ });
    // The menu button shows on hover, which jsdom's styles do not apply: find it hidden.
    await user.click(header.querySelector('button[aria-label="Name column menu"]') as HTMLElement);
    const menu = await screen.findByRole('menu', undefined, { timeout: 10_000 });
    const items = within(menu).getAllByRole('menuitem').map((item) => item.textContent);
    expect(items.length).toBeGreaterThan(0);
    expect(items.some((text) => /filter/i.test(text ?? ''))).toBe(false);
    expect(items.some((text) => /sort/i.test(text ?? ''))).toBe(false);
  });
});

describe('PagedGrid on a phone', () => {
  const matchMedia = window.matchMedia;
  beforeAll(() => {
    // jsdom has no media queries: this window is a phone held upright (the view PagedGrid picks by width).
    window.matchMedia = (query: string) =>
      ({ matches: query === PHONE_QUERY, media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false }) as MediaQueryList;
  });
  afterAll(() => {
    window.matchMedia = matchMedia;
  });

  const cardColumns: GridColDef<Row>[] = [
    { field: 'name', headerName: 'Name', flex: 1 },
    { field: 'shout', headerName: 'Shout', valueGetter: (_value, row) => row.name.toUpperCase(), valueFormatter: (value: string) => `${value}!` },
    { field: 'act', headerName: 'Act', renderCell: ({ row }) => <button type="button">Open {row.name}</button> },
    { field: 'secret', headerName: 'Secret' },
  ];

  it('shows each row as a card of header and value, with the cells the grid would draw, and no grid', async () => {
    const { user, onPageChange } = await renderGrid({ columns: cardColumns, rows: rowsOf(2, 10), rowCount: 12, page: 2 });
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const pairs = (card: HTMLElement) => [...card.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(pairs(cards[1])).toEqual(['#: 12', 'Name: row 11', 'Shout: ROW 11!', 'Act: Open row 11', 'Secret: ']);
    await user.click(within(cards[0]).getByRole('button', { name: 'Open row 10' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPageChange).toHaveBeenLastCalledWith(1);
    expect(screen.getByText('Showing 2 out of 12 entries')).toBeInTheDocument();
  });

  it("says 'No records' when empty and shows a spinner while loading", async () => {
    await renderGrid();
    expect(screen.getByText('No records')).toBeInTheDocument();
    cleanup();
    await renderGrid({ loading: true });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByText('No records')).not.toBeInTheDocument();
  });
});
