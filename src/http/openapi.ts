import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { STATUS } from './errors.js';
import type { RouteSpec } from './route.js';

const ERROR_BODY = {
  type: 'object',
  required: ['id', 'name', 'message'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'array', items: { type: 'object', properties: { message: { type: 'string' } } } },
  },
};

/** JSON Schema of a valibot schema; checks with no JSON Schema form (custom rules) are left out, not fatal. */
const schemaOf = (schema: v.GenericSchema) => toJsonSchema(schema, { errorMode: 'ignore' });

/**
 * The OpenAPI 3.1 document of every route, generated from the same route records that build the router,
 * with request bodies from their valibot schemas.
 */
export function openApiDocument(routes: RouteSpec[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const parameters: Record<string, unknown>[] = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name, in: 'path', required: true, schema: { type: name === 'userId' || name === 'roleId' ? 'integer' : 'string' },
    }));
    for (const [name, entry] of Object.entries(route.query?.entries ?? {})) {
      parameters.push({ name, in: 'query', required: entry.type !== 'optional', schema: { type: 'string' } });
    }
    const responses: Record<string, unknown> = { [String(route.success.status)]: { description: route.success.description } };
    // The pipeline (mount.ts) answers these on every route of its kind, whatever the route declares.
    const implied = [...(route.path.includes(':projectId') ? ['NotFoundError'] : []), ...(route.body ? ['PayloadTooLarge', 'ContentTypeError'] : [])];
    for (const kind of ['ValidationError', 'AuthenticationRequired', 'NoAccessError', ...implied, ...(route.errors ?? [])]) {
      const status = String(STATUS[kind as keyof typeof STATUS] ?? 400);
      responses[status] ??= { description: kind, content: { 'application/json': { schema: ERROR_BODY } } };
    }
    paths[path] ??= {};
    paths[path][route.method] = {
      tags: [route.tag],
      summary: route.summary,
      operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
      'x-permission': route.permission,
      parameters,
      ...(route.body ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: schemaOf(route.body) } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'flagpole admin API', version, description: 'The Unleash admin API as flagpole serves it; see docs/api-decisions.md.' },
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    security: [{ apiKey: [] }],
    paths,
  };
}
