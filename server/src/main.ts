import { buildApp } from './app';
import { ensureFirstAdmin } from './auth/first-admin';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { seedDemoData } from './db/seed';
import { smsProviderFor } from './providers/africastalking-sms';
import { paymentProviderFor } from './providers/payment-from-config';

/** Process concerns only: configuration, database, first admin, demo data, listening, shutdown. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const admin = await ensureFirstAdmin(database.db, config.adminUserName, config.adminPassword);
  // SMS_PROVIDER=africastalking with AT_USERNAME/AT_API_KEY sends for real; local by default.
  const sms = smsProviderFor(config.sms);
  // Made by buildApp with the settlement, to which the local provider and MoMo's polls hand what they decide.
  const payment = paymentProviderFor(config.payment, (error, reference) =>
    app.log.error({ err: error, reference }, 'payment provider could not settle a payment'),
  );
  const app = await buildApp({
    db: database.db,
    jwtSecret: config.jwtSecret,
    twoFactorKey: config.twoFactorKey,
    requireTwoFactorRoles: config.requireTwoFactorRoles,
    timeZone: config.timeZone,
    serviceCurrency: config.serviceCurrency,
    webRoot: config.webRoot,
    publicUrl: config.publicUrl,
    allowedHosts: config.allowedHosts,
    trustProxy: config.trustProxy,
    providers: { sms, payment },
    rankingCacheMs: config.rankingCacheMs,
    sweeper: { timeoutMinutes: config.paymentTimeoutMinutes },
    refunds: config.refunds,
    callbackSecret: config.paymentCallbackSecret,
    deliveryReportToken: config.atCallbackToken,
    metricsToken: config.metricsToken,
    ussdMenuCacheMs: config.ussdMenuCacheMs,
    live: { feed: config.liveFeed === 'postgres' && config.databaseUrl ? { kind: 'postgres', databaseUrl: config.databaseUrl } : { kind: 'process' }, flushMs: config.liveFlushMs, writesPerSecond: config.liveWritesPerSecond, streams: config.liveStreams },
    incidents: { ...config.incidents, everyMs: config.incidentCheckSeconds * 1000 },
    ussd: { callbackToken: config.ussdCallbackToken, allowedSources: config.ussdAllowedSources, confirmsPerMinute: config.ussdConfirmsPerMinute },
    logger: {
      level: config.logLevel,
      // A reset token travels in the path, a delivery-report token in the query; neither may end up in the logs.
      serializers: {
        req: (request: { method: string; url: string; ip?: string }) => ({
          method: request.method,
          url: request.url.replace(/(\/reset-forgot-password\/)[^/?#]+/, '$1[redacted]').replace(/([?&]token=)[^&#]*/g, '$1[redacted]'),
          remoteAddress: request.ip,
        }),
      },
    },
  });

  // After buildApp, which sets the service's zone that the seeded days and the daily counts follow.
  if (config.seedDemo && admin.created) {
    const summary = await seedDemoData(database.db, { timeZone: config.timeZone, paymentTimeoutMinutes: config.paymentTimeoutMinutes });
    console.log(`  Demo data loaded: ${summary}`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // In-flight requests get a moment to finish; a stuck one must not keep the process alive.
    const deadline = setTimeout(() => process.exit(1), 10_000);
    deadline.unref();
    try {
      await app.close();
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  console.log(`  Dialdesk is running on http://${config.host}:${config.port} (${database.kind})`);
  // Last and framed, after the build's and the server's output, so a newcomer finds it.
  if (admin.created && admin.generatedPassword) {
    const lines = [`First admin created. Sign in as "${admin.userName}"`, `with the password "${admin.generatedPassword}"`, '(shown once: keep it, or set ADMIN_PASSWORD before the first start)'];
    const width = Math.max(...lines.map((line) => line.length));
    console.log(['', `  ┌${'─'.repeat(width + 2)}┐`, ...lines.map((line) => `  │ ${line.padEnd(width)} │`), `  └${'─'.repeat(width + 2)}┘`].join('\n'));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
