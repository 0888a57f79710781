/**
 * The playground's form, all of it in the address (a GET form, so a context can be shared and reloaded): the
 * environments (`env`, repeatable), the projects (`projects=all`, or `projects=some` with `project` repeatable),
 * the context (`appName`, `userId`, `sessionId`, `remoteAddress`, `currentTime`, and `properties.<field>` for the
 * custom context fields), which results to show (`show`) and the page of results (`page`). The body it stands for
 * is checked by the API's own schema, so the page refuses what the API refuses, with the same message.
 */
import * as v from 'valibot';
import { formatIssues } from '../schemas/issues.js';
import { PlaygroundBodySchema, readContext, type RequestContext } from '../schemas/frontend.schema.js';
import { refusalOf, type Refusal } from './forms/form.js';

/** The context fields the form always shows, in this order; every other context field is a property. */
export const STANDARD_FIELDS = ['appName', 'userId', 'sessionId', 'remoteAddress', 'currentTime'] as const;

/** Context fields that are not properties (the environment is chosen on its own). */
const NOT_PROPERTIES: ReadonlySet<string> = new Set([...STANDARD_FIELDS, 'environment']);

/** Whether a context field is sent as a property. */
export const isProperty = (field: string): boolean => !NOT_PROPERTIES.has(field);

/** Which results the page lists: every flag, or those on (or off) in at least one chosen environment. */
export type Show = 'all' | 'on' | 'off';

/** The form as the address holds it (every value a string as typed). */
export interface PlaygroundForm {
  environments: string[];
  /** Every project, or the ones listed. */
  allProjects: boolean;
  projects: string[];
  fields: Record<string, string>;
  properties: Record<string, string>;
  show: Show;
  page: number;
  /** Whether the form was sent (any parameter in the address): only then is anything evaluated or refused. */
  sent: boolean;
}

/** How many of a repeatable parameter are read: more than the service could have is a mistake, not a request. */
const MAX_REPEATS = 1000;

/**
 * The form an address describes; `defaultEnvironment` is checked when none was sent.
 *
 * @example formOf(new URLSearchParams('env=production&appName=web&properties.region=eu'), 'development')
 */
export function formOf(search: URLSearchParams, defaultEnvironment: string | undefined): PlaygroundForm {
  const sent = [...search.keys()].length > 0;
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of STANDARD_FIELDS) fields[name] = (search.get(name) ?? '').trim();
  const properties: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of search) {
    if (key.startsWith('properties.') && key.length > 'properties.'.length && value.trim() !== '') properties[key.slice('properties.'.length)] = value.trim();
  }
  const show = search.get('show');
  const page = Number.parseInt(search.get('page') ?? '1', 10);
  return {
    environments: sent ? [...new Set(search.getAll('env'))].slice(0, MAX_REPEATS) : defaultEnvironment === undefined ? [] : [defaultEnvironment],
    allProjects: search.get('projects') !== 'some',
    projects: [...new Set(search.getAll('project'))].slice(0, MAX_REPEATS),
    fields,
    properties,
    show: show === 'on' || show === 'off' ? show : 'all',
    page: Number.isFinite(page) && page > 0 ? page : 1,
    sent,
  };
}

/** The address of the form with `change` applied (the pager's links). */
export function playgroundUrl(form: PlaygroundForm, change: { page?: number } = {}): string {
  const search = new URLSearchParams();
  for (const env of form.environments) search.append('env', env);
  search.set('projects', form.allProjects ? 'all' : 'some');
  if (!form.allProjects) for (const project of form.projects) search.append('project', project);
  for (const [name, value] of Object.entries(form.fields)) if (value !== '') search.set(name, value);
  for (const [name, value] of Object.entries(form.properties)) search.set(`properties.${name}`, value);
  if (form.show !== 'all') search.set('show', form.show);
  const page = change.page ?? form.page;
  if (page > 1) search.set('page', String(page));
  return `/playground?${search}`;
}

/**
 * The field of the form a path names: `environment`, `projects` (any of them), a context field (`context.userId`,
 * `context.properties.region`: the property's own input).
 */
function fieldOf(path: string): string | undefined {
  const [head, field, property] = path.split('.');
  if (head === 'environment' || head === 'projects') return head;
  if (head !== 'context' || field === undefined) return undefined;
  return field === 'properties' ? property : field;
}

/**
 * The playground's form as its refusals name it. The API's schema reports a context's issue at `context` (its
 * message names the field): where in the context is what reading it says, else its missing `appName`.
 */
const playgroundOf = (context: Record<string, unknown>) => ({
  name: 'playground',
  field: (path: string) => {
    if (path !== 'context') return fieldOf(path);
    const read = readContext(context);
    return fieldOf(read.ok ? 'context.appName' : read.path);
  },
});

/** What the page evaluates: one API body per environment, all checked. */
export interface PlaygroundRequest {
  environments: string[];
  projects: string[] | '*';
  context: RequestContext;
}

/**
 * The request the form stands for, checked as the API checks its body (per environment, which refuses a
 * context without `appName`); or the first refusal.
 */
export function requestOf(form: PlaygroundForm): { ok: true; request: PlaygroundRequest } | { ok: false; refusal: Refusal<PlaygroundForm> } {
  const context: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form.fields)) if (value !== '') context[name] = value;
  context['properties'] = { ...form.properties };
  const projects = form.allProjects ? '*' : form.projects;
  let checked: RequestContext | undefined;
  for (const environment of form.environments.length === 0 ? [undefined] : form.environments) {
    // No environment chosen: the key is absent from the body, as from a body that names none.
    const parsed = v.safeParse(PlaygroundBodySchema, environment === undefined ? { projects, context } : { environment, projects, context });
    if (!parsed.success) return { ok: false, refusal: refusalOf(playgroundOf(context), { kind: 'ValidationError', ...formatIssues(parsed.issues) }, form) };
    checked = parsed.output.context;
  }
  return { ok: true, request: { environments: form.environments, projects, context: checked! } };
}
