import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { failureBody } from '../http/envelope';
import { HttpError } from '../http/http-error';
import { databaseRefusal, isDatabaseUnavailable } from '../http/postgres-errors';

/**
 * Shapes every error into the failure envelope, small whatever the request, and hides the details of 5xx;
 * a 5xx names its request id instead, which every log line of the request carries.
 */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send(failureBody(error.message, error.errors, error.statusCode >= 500 ? request.id : undefined));
    }
    if (error.validation) {
      const errors = error.validation.map((v) => ({
        field: String(v.instancePath || (v.params as { missingProperty?: string }).missingProperty || '').replace(/^\//, ''),
        message: v.message ?? 'Invalid value',
      }));
      const message = errors[0]?.field ? `${errors[0].field} ${errors[0].message}` : 'Invalid input';
      return reply.code(400).send(failureBody(message, errors));
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode < 500) {
      // Fastify's own messages are fixed texts; another library's may carry the request back.
      return reply.code(statusCode).send(failureBody(error.code?.startsWith('FST_') ? error.message : 'Invalid request'));
    }
    // A rule the database holds (a trigger, a unique index) refused the write: the caller's to fix.
    const refusal = databaseRefusal(error);
    if (refusal) return reply.code(refusal.status).send(failureBody(refusal.message));
    if (isDatabaseUnavailable(error)) {
      // Nothing was done: a provider retries its callback, a screen its read. 503, not 500, so neither takes it as final.
      request.log.warn({ err: error }, 'the database is unavailable');
      return reply.code(503).header('retry-after', '5').send(failureBody('The service is briefly unavailable; try again in a few seconds', [], request.id));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(failureBody('Something went wrong on our side', [], request.id));
  });
});

/**
 * Fastify's router errors (`frameworkErrors`): an address that is not valid or a path parameter
 * over the router's limit, answered in the envelope without repeating the address.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // The router refuses before the onRequest hooks run, so this answer names its request here.
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(414).send(failureBody('The address is too long'));
  if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).send(failureBody('The address is not valid'));
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send(failureBody('Something went wrong on our side', [], request.id));
}
