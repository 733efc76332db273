import { apiUrl } from '../api/api-url';

it('reaches the real API started by the global setup', async () => {
  const response = await fetch(apiUrl('/healthz'));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: true, message: 'ok' });
});
