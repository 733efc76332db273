import { choiceFilter, dayFilter, fixedFilter, idFilter, MAX_PAGE, parsePage, phoneNumberFilter, readView, serviceCodeFilter, writeView } from './list-view';
import { RECONCILIATION_KINDS } from './reconciliation';

const STATUSES = ['processed', 'failed', 'pending'] as const;
const filters = {
  name: serviceCodeFilter('*217*1#'),
  date: dayFilter('2026-01-15'),
  status: choiceFilter(STATUSES, 'failed'),
  phoneNumber: phoneNumberFilter(),
};
const read = (query: string) => readView(new URLSearchParams(query), filters);

describe('list views in the URL', () => {
  it('reads a valid view', () => {
    expect(read('name=*217*25%23&date=2024-02-29&status=pending&phoneNumber=256750461234&page=3')).toEqual({
      filters: { name: '*217*25#', date: '2024-02-29', status: 'pending', phoneNumber: '256750461234' },
      page: 3,
    });
  });

  it('falls back to the default on anything that is not a value, filter by filter', () => {
    const defaults = { name: '*217*1#', date: '2026-01-15', status: 'failed', phoneNumber: '' };
    for (const query of [
      'name=*217*1',
      'name=217',
      'name=<script>',
      `name=*${'1'.repeat(60)}%23`,
      'date=2026-02-30',
      'date=2025-02-29',
      'date=2026-1-5',
      'date=01/15/2026',
      'date=2026-01-15T00:00',
      'status=deleted',
      'status=FAILED',
      'status=',
      'phoneNumber=abc',
      'phoneNumber=%2B256750461234',
      'phoneNumber=12345',
      `phoneNumber=${'1'.repeat(21)}`,
    ]) {
      expect(read(query).filters).toEqual(defaults);
    }
  });

  it("takes '' as every code: a manager's choice of all codes", () => {
    expect(read('name=').filters.name).toBe('');
  });

  it('takes a page that is a positive integer within reason', () => {
    expect(parsePage('1')).toBe(1);
    expect(parsePage('42')).toBe(42);
    expect(parsePage(String(MAX_PAGE))).toBe(MAX_PAGE);
    for (const bad of [null, '', '0', '-1', '1.5', '1e3', '01', ' 2', '0x10', String(MAX_PAGE + 1), '99999999999999999999', 'NaN']) {
      expect(parsePage(bad)).toBeUndefined();
    }
    expect(read('page=abc').page).toBe(1);
  });

  it('reads ids and fixed choices', () => {
    const reconciliation = { statement: idFilter(), kind: choiceFilter(RECONCILIATION_KINDS, 'paidNoTicket') };
    const id = '3f2b8c1e-9a4d-4e2f-8b1a-0c9d8e7f6a5b';
    expect(readView(new URLSearchParams(`statement=${id}&kind=matched`), reconciliation).filters).toEqual({ statement: id, kind: 'matched' });
    expect(readView(new URLSearchParams("statement=1' OR 1=1&kind=__proto__"), reconciliation).filters).toEqual({ statement: '', kind: 'paidNoTicket' });
  });

  it('never reads a fixed filter from the URL, nor writes it', () => {
    const agent = { name: fixedFilter('*217*3#'), date: dayFilter('2026-01-15') };
    const view = readView(new URLSearchParams('name=*217*9%23&date=2026-01-10'), agent);
    expect(view.filters).toEqual({ name: '*217*3#', date: '2026-01-10' });
    expect(writeView(new URLSearchParams('name=*217*9%23'), agent, view).toString()).toBe('date=2026-01-10');
  });

  it('writes what differs from the defaults, the personal code always, and keeps other keys', () => {
    const written = writeView(new URLSearchParams('tab=new&date=2026-01-01&page=4'), filters, {
      filters: { name: '*217*1#', date: '2026-01-15', status: 'failed', phoneNumber: '+256 750-461234' },
      page: 1,
    });
    expect(Object.fromEntries(written)).toEqual({ tab: 'new', name: '*217*1#', phoneNumber: '256750461234' });
    const round = writeView(new URLSearchParams(), filters, { filters: { name: '', date: '2026-03-01', status: 'processed', phoneNumber: '' }, page: 7 });
    expect(readView(round, filters)).toEqual({ filters: { name: '', date: '2026-03-01', status: 'processed', phoneNumber: '' }, page: 7 });
  });

  it('keeps two lists apart by prefix', () => {
    const query = new URLSearchParams('date=2026-01-02&second.date=2026-01-03&second.page=2');
    expect(readView(query, { date: dayFilter('2026-01-01') }, 'second')).toEqual({ filters: { date: '2026-01-03' }, page: 2 });
    expect(readView(query, { date: dayFilter('2026-01-01') })).toEqual({ filters: { date: '2026-01-02' }, page: 1 });
  });
});
