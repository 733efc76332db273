import { apiUrl } from '../api/api-url';
import { createAgentViaApi, sessionFor, type TestAgent } from './render-app';
import { TEST_ADMIN } from './test-admin';

/** A fresh agent the admin marks Afcon-only (DESIGN §3: PATCH /v1/users/{id} with isAfcon). */
export async function createAfconAccountViaApi(): Promise<TestAgent> {
  const agent = await createAgentViaApi('afcon');
  const admin = await sessionFor(TEST_ADMIN);
  const response = await fetch(apiUrl(`/v1/users/${agent.id}`), {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin.accessToken}` },
    body: JSON.stringify({ userName: agent.userName, isAfcon: true }),
  });
  if (!response.ok) throw new Error(`marking ${agent.userName} Afcon-only answered ${response.status}`);
  return agent;
}
