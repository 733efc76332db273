import { canOpen, menuFor } from './menu';

const labels = (role: 'agent' | 'customer-care' | 'admin' | 'super-user', isAfcon = false) => menuFor({ role, isAfcon }).map((e) => e.label);
const CAMPAIGN_PATHS = [
  '/world/cup/transactions',
  '/world/cup/failed',
  '/world/cup/search',
  '/world/cup/most/general',
  '/world/cup/week/2/ranking',
  '/world/cup/week/3/ranking',
  '/world/cup/week/4/ranking',
  '/world/cup/final/winner',
  '/afcon/2024/transactions',
  '/afcon/2024/failed',
  '/afcon/2024/search',
  '/afcon/2024/ranking',
];

describe('sidebar menu by role', () => {
  it('gives agents the regular entries only, without campaigns', () => {
    expect(labels('agent')).toEqual(['Dashboard', 'Transactions', 'Trans search', 'Failed transactions', 'Incidents', 'Content', 'Sms', 'Reports']);
    expect(menuFor({ role: 'agent', isAfcon: false }).some((e) => e.group)).toBe(false);
  });

  it("gives customer care the calls' screens, incidents and refunds: no content, SMS, users, catalogue, reconciliation or audit", () => {
    expect(labels('customer-care')).toEqual(['Dashboard', 'Transactions', 'Trans search', 'Failed transactions', 'Incidents', 'Refunds']);
    const user = { role: 'customer-care' as const, isAfcon: false };
    for (const path of ['/failed', '/search', '/incidents', '/refunds', '/account', '/customers/256772000901']) expect([path, canOpen(user, path)]).toEqual([path, true]);
    for (const path of ['/reports', '/contents', '/sms', '/users', '/category', '/service/code', '/reconciliation', '/audit', '/world/cup/transactions']) {
      expect([path, canOpen(user, path)]).toEqual([path, false]);
    }
  });

  it("opens a customer's page for whoever reads the calls' lists, not the Afcon-only account", () => {
    expect(canOpen({ role: 'agent', isAfcon: false }, '/customers/256772000901')).toBe(true);
    expect(canOpen({ role: 'admin', isAfcon: false }, '/customers/256772000901/')).toBe(true);
    expect(canOpen({ role: 'agent', isAfcon: true }, '/customers/256772000901')).toBe(false);
    expect(canOpen({ role: 'admin', isAfcon: false, twoFactorSetupRequired: true }, '/customers/256772000901')).toBe(false);
    expect(labels('admin')).toContain('Reports');
  });

  it('offers only the profile to a role that must set up two-factor sign-in first', () => {
    const user = { role: 'admin' as const, isAfcon: false, twoFactorSetupRequired: true };
    expect(menuFor(user)).toEqual([{ label: 'Profile', path: '/account' }]);
    expect([canOpen(user, '/account'), canOpen(user, '/users'), canOpen(user, '/transactions')]).toEqual([true, false, false]);
  });

  it('adds Profile, Users, Category and Service code for admin and super-user', () => {
    for (const role of ['admin', 'super-user'] as const) {
      expect(labels(role)).toEqual(expect.arrayContaining(['Transactions', 'Profile', 'Users', 'Category', 'Service code']));
    }
  });

  it("gives admin and super-user a 'Campaigns' group with every World Cup and AFCON screen", () => {
    for (const role of ['admin', 'super-user'] as const) {
      const campaigns = menuFor({ role, isAfcon: false }).filter((e) => e.group === 'Campaigns');
      expect(campaigns.map((e) => e.path)).toEqual([...CAMPAIGN_PATHS, '/campaigns']);
      expect(campaigns.map((e) => e.label)).toContain('World Cup Week 2');
      expect(campaigns.at(-1)?.label).toBe('All campaigns');
      expect(new Set(campaigns.map((e) => e.label)).size).toBe(CAMPAIGN_PATHS.length + 1);
    }
  });

  it('lists each other live campaign with its keyed screens between SPEC\'s and All campaigns', () => {
    const campaigns = [
      { key: 'world-cup-2022', name: 'World Cup 2022', status: 'live' },
      { key: 'cecafa-2025', name: 'CECAFA 2025', status: 'live' },
      { key: 'draft-show', name: 'Draft show', status: 'draft' },
      { key: 'old-cup', name: 'Old cup', status: 'closed' },
    ];
    const entries = menuFor({ role: 'admin', isAfcon: false }, campaigns).filter((e) => e.group === 'Campaigns');
    expect(entries.slice(CAMPAIGN_PATHS.length).map((e) => [e.label, e.path])).toEqual([
      ['CECAFA 2025 Transactions', '/campaigns/cecafa-2025/transactions'],
      ['CECAFA 2025 Failed', '/campaigns/cecafa-2025/failed'],
      ['CECAFA 2025 Search', '/campaigns/cecafa-2025/search'],
      ['CECAFA 2025 Ranking', '/campaigns/cecafa-2025/ranking'],
      ['CECAFA 2025 Suspicious', '/campaigns/cecafa-2025/suspicious'],
      ['All campaigns', '/campaigns'],
    ]);
    // Nobody else's menu lists them.
    expect(menuFor({ role: 'agent', isAfcon: false }, campaigns).some((e) => e.path.startsWith('/campaigns'))).toBe(false);
    expect(menuFor({ role: 'agent', isAfcon: true }, campaigns).map((e) => e.path)).toEqual([...CAMPAIGN_PATHS.slice(8), '/incidents']);
  });

  it("opens any campaign's keyed screens to admins, AFCON's alone to the Afcon-only account, none to agents", () => {
    for (const role of ['admin', 'super-user'] as const) {
      for (const path of ['/campaigns', '/campaigns/cecafa-2025/ranking', '/campaigns/draft-show/suspicious', '/campaigns/world-cup-2022/suspicious']) expect([path, canOpen({ role, isAfcon: false }, path)]).toEqual([path, true]);
    }
    const afcon = { role: 'agent', isAfcon: true } as const;
    expect(canOpen(afcon, '/campaigns/afcon-2024/suspicious')).toBe(true);
    for (const path of ['/campaigns', '/campaigns/world-cup-2022/suspicious', '/campaigns/cecafa-2025/ranking']) expect([path, canOpen(afcon, path)]).toEqual([path, false]);
    for (const path of ['/campaigns', '/campaigns/cecafa-2025/ranking', '/campaigns/afcon-2024/suspicious']) expect([path, canOpen({ role: 'agent', isAfcon: false }, path)]).toEqual([path, false]);
    expect(canOpen({ role: 'admin', isAfcon: false }, '/campaigns/cecafa-2025/nothing')).toBe(false);
  });

  it("gives admin and super-user a 'Finance' group with Refunds and Reconciliation, and nobody else", () => {
    for (const role of ['admin', 'super-user'] as const) {
      expect(menuFor({ role, isAfcon: false }).filter((e) => e.group === 'Finance')).toEqual([
        { label: 'Refunds', path: '/refunds', group: 'Finance' },
        { label: 'Reconciliation', path: '/reconciliation', group: 'Finance' },
      ]);
    }
    expect(menuFor({ role: 'agent', isAfcon: false }).some((e) => e.path === '/reconciliation' || e.path === '/refunds')).toBe(false);
    expect(menuFor({ role: 'admin', isAfcon: true }).some((e) => e.path === '/reconciliation')).toBe(false);
  });

  it("gives admin and super-user an 'Oversight' group with the audit trail, and nobody else", () => {
    for (const role of ['admin', 'super-user'] as const) {
      expect(menuFor({ role, isAfcon: false }).filter((e) => e.group === 'Oversight')).toEqual([{ label: 'Audit trail', path: '/audit', group: 'Oversight' }]);
      expect(canOpen({ role, isAfcon: false }, '/audit')).toBe(true);
    }
    expect(canOpen({ role: 'agent', isAfcon: false }, '/audit')).toBe(false);
    expect(canOpen({ role: 'admin', isAfcon: true }, '/audit')).toBe(false);
  });

  it('gives the Afcon-only account the Afcon menu alone', () => {
    expect(labels('agent', true)).toEqual(['Afcon Transactions', 'Failed Transactions', 'Trans Search', 'Ranking', 'Incidents']);
    expect(menuFor({ role: 'agent', isAfcon: true }).map((e) => e.path)).toEqual([...CAMPAIGN_PATHS.slice(8), '/incidents']);
  });
});

describe('which screens a role may open', () => {
  const agent = { role: 'agent', isAfcon: false } as const;
  const admin = { role: 'admin', isAfcon: false } as const;
  const afcon = { role: 'agent', isAfcon: true } as const;

  it('lets agents open their menu, their profile and the settings, and nothing of the managers or the campaigns', () => {
    for (const path of ['/transactions', '/failed', '/search', '/dashboard', '/incidents', '/contents', '/sms', '/account', '/settings', '/Transactions/']) expect([path, canOpen(agent, path)]).toEqual([path, true]);
    for (const path of ['/users', '/category', '/categories/new', '/service/code', ...CAMPAIGN_PATHS]) expect([path, canOpen(agent, path)]).toEqual([path, false]);
  });

  it('lets admins open every screen', () => {
    for (const path of ['/users', '/categories/all', '/service/code', '/account', '/incidents', ...CAMPAIGN_PATHS]) expect([path, canOpen(admin, path)]).toEqual([path, true]);
  });

  it('lets the Afcon-only account open the AFCON screens, its profile and the settings only', () => {
    for (const path of CAMPAIGN_PATHS.filter((p) => p.startsWith('/afcon'))) expect(canOpen(afcon, path)).toBe(true);
    for (const path of ['/transactions', '/dashboard', '/users', '/world/cup/failed']) expect([path, canOpen(afcon, path)]).toEqual([path, false]);
    expect(canOpen(afcon, '/account')).toBe(true);
    // AFCON's incidents.
    expect(canOpen(afcon, '/incidents')).toBe(true);
  });
});
