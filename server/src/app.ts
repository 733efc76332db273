import fs from 'node:fs';
import path from 'node:path';
import helmet from 'helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Db } from './db/client';
import { failureBody } from './http';
import authPlugin from './plugins/auth';
import databasePlugin from './plugins/database';
import errorsPlugin, { frameworkError } from './plugins/errors';
import inputGuardPlugin from './plugins/input-guard';
import providersPlugin, { type Providers } from './plugins/providers';
import { localMailProvider } from './providers/mail';
import { localPaymentProvider } from './providers/payment';
import { localSmsProvider } from './providers/sms';
import authRoutes from './routes/auth';
import campaignsRoutes from './routes/campaigns';
import categoriesRoutes from './routes/categories';
import contentsRoutes from './routes/contents';
import dashboardRoutes from './routes/dashboard';
import healthRoutes from './routes/health';
import serviceCodesRoutes from './routes/service-codes';
import smsRoutes from './routes/sms';
import transactionsRoutes from './routes/transactions';
import ussdRoutes from './routes/ussd';
import paymentsRoutes from './routes/payments';
import usersRoutes from './routes/users';

export interface AppDeps {
  db: Db;
  jwtSecret: string;
  timeZone?: string;
  providers?: Partial<Providers>;
  /** Folder of the built SPA; served with a fallback to index.html when it exists. */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
  /** Public origin of the site, for links in mail (PUBLIC_URL). */
  publicUrl?: string;
  /**
   * Proxies whose X-Forwarded-* headers are believed (TRUST_PROXY). Off by default: believing
   * any client's X-Forwarded-For would let it dodge the per-address sign-in limit.
   */
  trustProxy?: boolean | string;
}

/** Builds the whole API from its dependencies; main.ts listens, tests inject. */
export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.trustProxy ?? false,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
    frameworkErrors: frameworkError,
  });

  // Security headers on every answer. Helmet's middleware is built once here: @fastify/helmet
  // rebuilt it, parsing the CSP again, on every request (a twentieth of a list call's CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
        imgSrc: ["'self'", 'data:', 'validator.swagger.io'],
        fontSrc: ["'self'", 'data:'],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
  await app.register(swagger, {
    openapi: {
      info: { title: 'Dialdesk API', version: '1.0.0', description: 'Operator console API (SPEC §7 contract)' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(errorsPlugin);
  await app.register(inputGuardPlugin);
  await app.register(databasePlugin, { db: deps.db });
  await app.register(providersPlugin, {
    providers: {
      mail: deps.providers?.mail ?? localMailProvider(deps.db),
      sms: deps.providers?.sms ?? localSmsProvider(),
      payment: deps.providers?.payment ?? localPaymentProvider(),
    },
  });
  await app.register(authPlugin, { secret: deps.jwtSecret });

  // Routes, one module per resource (paths as SPEC §7).
  await app.register(healthRoutes);
  await app.register(authRoutes, { publicUrl: deps.publicUrl });
  await app.register(usersRoutes);
  await app.register(categoriesRoutes);
  await app.register(serviceCodesRoutes);
  await app.register(contentsRoutes);
  await app.register(smsRoutes);
  await app.register(transactionsRoutes);
  await app.register(dashboardRoutes);
  await app.register(ussdRoutes);
  await app.register(paymentsRoutes);
  await app.register(campaignsRoutes);

  const serveWeb = Boolean(deps.webRoot && fs.existsSync(path.join(deps.webRoot, 'index.html')));
  if (serveWeb) await app.register(fastifyStatic, { root: deps.webRoot!, wildcard: false });
  app.setNotFoundHandler((request, reply) => {
    // The SPA owns every other GET path (client-side routes), so it gets index.html.
    if (serveWeb && request.method === 'GET' && !request.url.startsWith('/v1/')) return reply.sendFile('index.html');
    // The address is not repeated back: an error answer never echoes the request (DESIGN §4).
    return reply.code(404).send(failureBody('Route not found'));
  });

  return app;
}
