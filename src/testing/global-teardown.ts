export default async function globalTeardown() {
  const server = globalThis.__DIALDESK_TEST_SERVER__;
  if (!server) return;
  await server.app.close();
  await server.database.close();
}
