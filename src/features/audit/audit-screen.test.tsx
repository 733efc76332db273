import { screen, waitFor, within } from '@testing-library/react';
import { apiUrl } from '../../api/api-url';
import { createCategoryViaApi } from '../../testing/catalogue-fixtures';
import { createAgentViaApi, renderApp, sessionFor, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

const slow = { timeout: 20_000 };

/** Edits a category over the real API as the test admin. */
async function patchCategory(id: string, body: object) {
  const { accessToken } = await sessionFor(TEST_ADMIN);
  const response = await fetch(apiUrl(`/v1/category/${id}`), { method: 'PATCH', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`PATCH answered ${response.status}`);
}

describe('Audit trail screen', () => {
  it("lists a record's entries with the changes in words, filters by action through the URL, and verifies the chain", async () => {
    const agent = await createAgentViaApi('audit-agent');
    const category = await createCategoryViaApi(agent.id, uniqueName('Audited'));
    await patchCategory(category._id, { vip: 6000, ordinary: 1500 });
    const { user, query } = await renderApp({ url: `/audit?entityType=category&entityId=${category._id}`, user: TEST_ADMIN });

    const grid = await screen.findByRole('grid', { name: 'Audit entries, newest first' }, slow);
    const change = await within(grid).findByText('VIP price 1,000 → 6,000', {}, slow);
    const row = change.closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Category changed')).toBeInTheDocument();
    expect(within(row).getByText('admin (Admin)')).toBeInTheDocument();
    expect(within(row).getByText(`Category ${category.name}`)).toBeInTheDocument();
    expect(within(row).getByText('Ordinary price 1,000 → 1,500')).toBeInTheDocument();
    expect(within(grid).getByText('Category created')).toBeInTheDocument();
    expect(screen.getByText(`One record: ${category._id}`)).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Category changed' }));
    await waitFor(() => expect(query()).toEqual({ entityType: 'category', entityId: category._id, action: 'category.update' }));
    await waitFor(() => expect(within(grid).queryByText('Category created')).not.toBeInTheDocument(), slow);
    expect(within(grid).getByText('VIP price 1,000 → 6,000')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Verify chain' }));
    expect(await screen.findByText(/^The trail is intact: [\d,]+ entries/, {}, slow)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(query()).toEqual({}));
  });

  it('is not offered to agents', async () => {
    const agent = await createAgentViaApi('audit-denied');
    await renderApp({ url: '/audit', user: agent });
    expect(await screen.findByText('You do not have access to this page', {}, slow)).toBeInTheDocument();
    expect(screen.queryByRole('grid', { name: 'Audit entries, newest first' })).not.toBeInTheDocument();
  });
});
