import { menuFor } from './menu';

const labels = (role: 'agent' | 'admin' | 'super-user', isAfcon = false) => menuFor({ role, isAfcon }).map((e) => e.label);

describe('sidebar menu by role', () => {
  it('gives agents the regular entries only', () => {
    expect(labels('agent')).toEqual(['Dashboard', 'Transactions', 'Trans search', 'Failed transactions', 'Content', 'Sms']);
  });

  it('adds Profile, Users, Category and Service code for admin and super-user', () => {
    for (const role of ['admin', 'super-user'] as const) {
      expect(labels(role)).toEqual(expect.arrayContaining(['Transactions', 'Profile', 'Users', 'Category', 'Service code']));
    }
  });

  it('gives the Afcon-only account the Afcon menu alone', () => {
    expect(labels('agent', true)).toEqual(['Afcon Transactions', 'Failed Transactions', 'Trans Search', 'Ranking']);
  });
});
