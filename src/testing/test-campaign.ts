import { apiUrl } from '../api/api-url';
import { sessionFor, uniqueName } from './render-app';
import { TEST_ADMIN } from './test-admin';
import { createServiceCodeViaApi } from './ussd-calls';

export interface TestCampaign {
  key: string;
  name: string;
  serviceCode: string;
}

/** The test campaign's teams; its rounds are 'Winner' (pick a team) and 'Semi-finals' (Uganda v Kenya, Tanzania v Rwanda). */
export const TEST_TEAMS = ['Uganda', 'Kenya', 'Tanzania', 'Rwanda'];

/**
 * A campaign created and published through the API as an admin does, on a fresh service code, at
 * UGX 300 a vote. `holdSuspicious` and `velocityPerMinute` as given (a low velocity flags a
 * number that votes a few times in a minute).
 */
export async function createCampaignViaApi({ holdSuspicious = false, velocityPerMinute = 10 } = {}): Promise<TestCampaign> {
  const { name: serviceCode } = await createServiceCodeViaApi();
  const admin = await sessionFor(TEST_ADMIN);
  const key = uniqueName('cup');
  const name = `Cup ${key.slice(4, 10).toUpperCase()}`;
  const send = async (path: string, body?: unknown) => {
    const response = await fetch(apiUrl(path), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin.accessToken}` },
      body: JSON.stringify(body ?? {}),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  };
  await send('/v1/campaigns', {
    key,
    name,
    serviceCode,
    teams: TEST_TEAMS,
    votePrice: 300,
    holdSuspicious,
    velocityPerMinute,
    rounds: [
      { key: 'winner', label: 'Winner', kind: 'teams' },
      { key: 'semis', label: 'Semi-finals', kind: 'games', games: [['Uganda', 'Kenya'], ['Tanzania', 'Rwanda']] },
    ],
  });
  await send(`/v1/campaigns/${key}/publish`);
  return { key, name, serviceCode };
}
