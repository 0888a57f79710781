/**
 * The evaluation context of the frontend API and the playground: the standard fields, `properties`, and
 * unknown top-level fields (which become properties, as Unleash 6.10 does). Bounded by `SHAPE_LIMITS`:
 * at most `contextProperties` properties, names identifiers of at most `contextPropertyName` characters and
 * not reserved, values of at most `contextValue` characters. Numbers and booleans are read as strings.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { EnvironmentNameSchema, looseObject, ProjectIdSchema, RESERVED_NAMES, reservedMessage } from './common.schema.js';
import { isIsoDateTime } from './formats.js';

/** The context fields that are not properties. */
const STANDARD_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'environment', 'appName', 'currentTime'] as const;
type StandardField = (typeof STANDARD_FIELDS)[number];
const STANDARD: ReadonlySet<string> = new Set(STANDARD_FIELDS);

/** A context as the engine reads it: strings only, properties in their own record (no prototype). */
export interface RequestContext {
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  environment?: string;
  appName?: string;
  currentTime?: string;
  properties: Record<string, string>;
}

/** A context value: a string, number or boolean of at most `contextValue` characters, as a string. */
function valueIssue(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return `must be a string, got ${value === null ? 'null' : Array.isArray(value) ? 'Array' : typeof value}`;
  if (String(value).length > SHAPE_LIMITS.contextValue) return `must be at most ${SHAPE_LIMITS.contextValue} characters`;
  return null;
}

function nameIssue(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > SHAPE_LIMITS.contextPropertyName) return `must be at most ${SHAPE_LIMITS.contextPropertyName} characters`;
  if (RESERVED_NAMES.has(name)) return reservedMessage(name);
  return null;
}

const shortName = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}...` : name);

/**
 * Reads a context object (a POST body's `context`, or the query turned into one); the first issue as
 * `{path, message}`, or the context. `null` and absent fields are absent.
 *
 * @example readContext({ userId: 42, properties: { plan: 'pro' } }) // { ok: true, context: { userId: '42', properties: { plan: 'pro' } } }
 */
export function readContext(input: unknown): { ok: true; context: RequestContext } | { ok: false; path: string; message: string } {
  if (input === undefined || input === null) return { ok: true, context: { properties: Object.create(null) as Record<string, string> } };
  if (typeof input !== 'object' || Array.isArray(input)) return { ok: false, path: 'context', message: 'must be an object' };
  const properties = Object.create(null) as Record<string, string>;
  const context: RequestContext = { properties };
  let count = 0;
  const addProperty = (name: string, value: unknown, path: string) => {
    const badName = nameIssue(name);
    if (badName) return { ok: false as const, path, message: `the property name ${badName}` };
    if (value === null || value === undefined) return null;
    const bad = valueIssue(value);
    if (bad) return { ok: false as const, path, message: bad };
    if (++count > SHAPE_LIMITS.contextProperties) return { ok: false as const, path: 'context.properties', message: `must hold at most ${SHAPE_LIMITS.contextProperties} properties` };
    properties[name] = String(value);
    return null;
  };
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (key === 'properties') {
      if (value === null || value === undefined) continue;
      if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, path: 'context.properties', message: 'must be an object' };
      for (const [name, propertyValue] of Object.entries(value as Record<string, unknown>)) {
        const issue = addProperty(name, propertyValue, `context.properties.${shortName(name)}`);
        if (issue) return issue;
      }
    } else if (STANDARD.has(key)) {
      if (value === null || value === undefined) continue;
      const bad = valueIssue(value);
      if (bad) return { ok: false, path: `context.${key}`, message: bad };
      const text = String(value);
      if (key === 'currentTime' && !isIsoDateTime(text)) return { ok: false, path: 'context.currentTime', message: 'must be an ISO 8601 date-time' };
      context[key as StandardField] = text;
    } else {
      const issue = addProperty(key, value, `context.${shortName(key)}`);
      if (issue) return issue;
    }
  }
  return { ok: true, context };
}

/**
 * The query of `GET /api/frontend` as a context object: `properties[name]=value` into `properties`, every
 * other parameter a field; a parameter given twice is an issue.
 */
export function queryAsContext(query: Record<string, string[]>): { ok: true; input: Record<string, unknown> } | { ok: false; path: string; message: string } {
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const properties: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, values] of Object.entries(query)) {
    if (values.length !== 1) return { ok: false, path: shortName(key), message: 'must be given once' };
    const property = /^properties\[(.*)\]$/s.exec(key);
    if (property) properties[property[1]!] = values[0];
    else if (key === 'properties' || key.includes('[')) return { ok: false, path: shortName(key), message: 'is not a context field: give a property as properties[name]=value' };
    else input[key] = values[0];
  }
  input['properties'] = properties;
  return { ok: true, input };
}

/** A context in a body: checked by {@link readContext}, output as a {@link RequestContext}. */
export const ContextSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const read = readContext(dataset.value);
    if (read.ok) return read.context;
    const where = read.path.replace(/^context\.?/, '');
    addIssue({ message: where ? `"${where}" ${read.message}` : read.message });
    return NEVER;
  }),
);

/** Body of `POST /api/frontend`: `{context}` (absent: an empty context). */
export const FrontendBodySchema = looseObject({ context: v.optional(ContextSchema) });

/**
 * Body of `POST /api/admin/playground`: the environment, `*` or a list of projects, and a context naming its
 * `appName` (Unleash's `playgroundRequestSchema` requires `environment` and `context`, its `sdkContextSchema` a
 * non-empty `appName`).
 */
export const PlaygroundBodySchema = looseObject({
  environment: EnvironmentNameSchema,
  projects: v.optional(
    v.union([
      v.literal('*'),
      v.pipe(v.array(ProjectIdSchema, 'must be "*" or an array of project ids'), v.maxLength(1000, 'must hold at most 1000 project ids')),
    ], 'must be "*" or an array of project ids'),
    '*',
  ),
  // An absent context is read as an empty one, so its 400 names what is missing in it.
  context: v.pipe(
    v.optional(ContextSchema, () => ({})),
    v.check((context) => (context.appName ?? '') !== '', '"appName" is required: the name of the application to evaluate for, as an SDK sends it'),
  ),
});
