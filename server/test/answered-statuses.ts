import type { onResponseHookHandler, RouteOptions } from 'fastify';

type Document = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

/** `/v1/category/:id` → `/v1/category/{id}`, as the OpenAPI document names the path. */
export const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * Records the status of every answer each route gives, to hold the OpenAPI document against them:
 * give `onRoute` to the test world (AppDeps.onRoute), send requests, then ask what is `undeclared`.
 */
export function answeredStatuses() {
  const answered = new Map<string, Set<number>>();
  const record: onResponseHookHandler = (request, reply, done) => {
    const url = request.routeOptions.url;
    // HEAD answers as its GET does; /docs serves the document itself.
    if (url && request.method !== 'HEAD' && !(url === '/docs' || url.startsWith('/docs/'))) {
      const key = `${request.method.toLowerCase()} ${openapiPath(url)}`;
      answered.set(key, (answered.get(key) ?? new Set()).add(reply.statusCode));
    }
    done();
  };
  return {
    /** Adds the recording hook to every route as it is registered. */
    onRoute(route: RouteOptions) {
      route.onResponse = [...[route.onResponse ?? []].flat(), record];
    },
    /** Every `METHOD /path` answered, with the statuses it answered. */
    answered: () => new Map(answered),
    /** `METHOD /path -> status` of each answer whose status the document does not declare for that operation. */
    undeclared(document: Document): string[] {
      return [...answered].flatMap(([key, statuses]) => {
        const [method, path] = key.split(' ');
        const declared = document.paths[path]?.[method]?.responses ?? {};
        return [...statuses].filter((status) => !(String(status) in declared)).map((status) => `${method.toUpperCase()} ${path} -> ${status}`);
      });
    },
  };
}
