import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http';

/** Shapes every error into the failure envelope and hides the details of 5xx. */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ status: false, message: error.message, errors: error.errors });
    }
    if (error.validation) {
      const errors = error.validation.map((v) => ({
        field: String(v.instancePath || (v.params as { missingProperty?: string }).missingProperty || '').replace(/^\//, ''),
        message: v.message ?? 'Invalid value',
      }));
      const message = errors[0]?.field ? `${errors[0].field} ${errors[0].message}` : 'Invalid input';
      return reply.code(400).send({ status: false, message, errors });
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode < 500) {
      return reply.code(statusCode).send({ status: false, message: error.message, errors: [] });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ status: false, message: 'Something went wrong on our side', errors: [] });
  });

});
