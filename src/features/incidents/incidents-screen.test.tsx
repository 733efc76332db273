import { screen, within } from '@testing-library/react';
import { createAgentViaApi, renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { CLOSED_TEST_INCIDENTS, INCIDENT_TEST_CODE, OPEN_TEST_INCIDENTS } from '../../testing/test-incidents';

// The incidents are the ones jest's global setup seeded (src/testing/test-incidents.ts): the web
// tests' API runs no detector.

const section = (name: string) => screen.findByRole('region', { name });

describe('the incidents screen', () => {
  it('shows the open incidents first, with kind, code or whole service, opening time and figures in words', async () => {
    await renderApp({ url: '/incidents', user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: 'Incidents' })).toBeInTheDocument();
    const open = await section('Open');
    const cards = await within(open).findAllByRole('article');
    // The newest open one first.
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Payment provider silent, Whole service', `Payments failing, ${INCIDENT_TEST_CODE}`]);
    expect(within(cards[1]).getByText('14 of 20 settled calls failed (70%) in 10 minutes; 7-day share 8%, threshold 28%')).toBeInTheDocument();
    expect(within(cards[1]).getByText('Open since 10 May 2024 12:00 pm')).toBeInTheDocument();
    expect(within(cards[0]).getByText('6 payments with no word from the provider for over 5 minutes; the oldest requested 10 May 2024 11:59 am')).toBeInTheDocument();
    expect(within(open).getByText(String(OPEN_TEST_INCIDENTS.length))).toBeInTheDocument();
    // Open comes before the history in the page.
    const history = await section('History');
    expect(open.compareDocumentPosition(history) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('lists the history newest first with opened and closed times and duration, a page at a time', async () => {
    const { user } = await renderApp({ url: '/incidents', user: TEST_ADMIN });
    const history = await section('History');
    const list = await within(history).findByRole('list', { name: 'Closed incidents, newest first' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(20);
    expect(within(rows[0]).getByRole('heading', { name: 'Ticket SMS failing' })).toBeInTheDocument();
    expect(within(rows[0]).getByText('Whole service')).toBeInTheDocument();
    expect(within(rows[0]).getByText('lasted 25 min')).toBeInTheDocument();
    expect(within(rows[0]).getByText('3 of 11 answered ticket SMS failed (27.3%) in 10 minutes; threshold 20%')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Opened 10 May 2024 11:00 am · closed 10 May 2024 11:25 am')).toBeInTheDocument();
    expect(within(rows[1]).getByText('lasted 1 h 5 min')).toBeInTheDocument();
    expect(within(rows[1]).getByText(INCIDENT_TEST_CODE)).toBeInTheDocument();

    await user.click(within(within(history).getByRole('navigation', { name: 'History pages' })).getByRole('button', { name: 'Go to page 2' }));
    const last = CLOSED_TEST_INCIDENTS.length - 20;
    await within(history).findByText('Opened 20 April 2024 12:00 pm · closed 20 April 2024 01:05 pm');
    expect(within(within(history).getByRole('list', { name: 'Closed incidents, newest first' })).getAllByRole('listitem')).toHaveLength(last);
  });

  it("tells an agent whose codes have had no incident that nothing is open, and shows it nobody else's", async () => {
    const agent = await createAgentViaApi();
    await renderApp({ url: '/incidents', user: agent });
    expect(await within(await section('Open')).findByText('No open incidents')).toBeInTheDocument();
    expect(await within(await section('History')).findByText('No closed incidents yet.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });
});

describe("the top bar's open-incident count", () => {
  it('names the count and leads to /incidents', async () => {
    const { user, pathname } = await renderApp({ url: '/dashboard', user: TEST_ADMIN });
    const count = await screen.findByRole('link', { name: `${OPEN_TEST_INCIDENTS.length} open incidents` });
    expect(within(count).getByText(String(OPEN_TEST_INCIDENTS.length))).toBeInTheDocument();
    await user.click(count);
    expect(await screen.findByRole('heading', { level: 1, name: 'Incidents' })).toBeInTheDocument();
    expect(pathname()).toBe('/incidents');
  });

  it('says there are none to an agent with none open', async () => {
    await renderApp({ url: '/dashboard', user: await createAgentViaApi() });
    expect(await screen.findByRole('link', { name: 'No open incidents' })).toHaveAttribute('href', '/incidents');
  });
});
