/** @jsxImportSource hono/jsx */
/**
 * The environments page (`/admin/environments`) and its forms: create, change type, move up or down, turn on
 * or off, delete. Each calls the use case the API's environment route calls, with that route's permission; a
 * refusal shows the page again with the API's message (next to the field it names).
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { isAllowed } from '../../../auth/permissions.js';
import type { DomainError } from '../../../domain/errors.js';
import type { Result } from '../../../domain/result.js';
import { listEnvironments } from '../../../queries/environments.query.js';
import { formatIssues } from '../../../schemas/issues.js';
import { EnvironmentParamsSchema } from '../../../schemas/params.schema.js';
import { CreateEnvironmentSchema, UpdateEnvironmentSchema } from '../../../schemas/project.schema.js';
import { createEnvironment, deleteEnvironment, sortEnvironments, toggleEnvironment, updateEnvironment } from '../../../use-cases/environments.use-cases.js';
import { STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { frameOf, renderPage } from '../render.js';
import { EnvironmentsPage } from '../views/environments/environments-page.js';
import { idOf } from '../views/flag/form-parts.js';
import { namedField } from './flag-page-render.js';

const LIST = '/admin/environments';
const ONE = '/admin/environments/:name';
const page = { tag: 'Console', authentication: 'session', page: true } as const;
const BACK = { status: 303, description: 'Back to the environments page' };

/** The confirmations a change leads to (`?done=`): fixed texts, never one from the address. */
const NOTICES = { created: 'Environment created.', saved: 'Type saved.', moved: 'Environment moved.', on: 'Environment turned on.', off: 'Environment turned off.', deleted: 'Environment deleted.' } as const;

function environmentsPage(c: Context<AppEnv>, deps: AppDeps, status = 200, refused?: { form: string; error: Pick<DomainError, 'kind' | 'message'>; fields: readonly string[] }): Response {
  // A taken name is the name field's message, though it does not start with the field's path.
  const field = (e: Pick<DomainError, 'kind' | 'message'>, fields: readonly string[]) => (e.kind === 'NameExistsError' && fields.includes('name') ? 'name' : namedField(e.message, fields));
  const done = c.req.query('done');
  const { _csrf: _, ...values } = c.get('form') ?? {};
  const error = refused ? { form: refused.form, field: field(refused.error, refused.fields), message: refused.error.message, values } : undefined;
  return renderPage(c, (
    <EnvironmentsPage frame={frameOf(c, deps)} environments={listEnvironments(deps.registry)} mayChange={isAllowed(c.get('principal'), 'ADMIN', undefined)}
      error={error} notice={done !== undefined && Object.hasOwn(NOTICES, done) ? NOTICES[done as keyof typeof NOTICES] : undefined} />
  ), status);
}

/** After a change: back to the list, its row in view. */
const back = (c: Context<AppEnv>, done: keyof typeof NOTICES, name?: string) =>
  c.redirect(`${LIST}?done=${done}${name ? `#${idOf('env', name)}` : ''}`, 303);

/** A written change's answer: back to the list, or the page again with the API's message for `form`. */
function answer(c: Context<AppEnv>, deps: AppDeps, written: Result<unknown>, form: string, done: keyof typeof NOTICES, name?: string, fields: readonly string[] = []): Response {
  return written.ok ? back(c, done, name) : environmentsPage(c, deps, STATUS[written.error.kind], { form, error: written.error, fields });
}

export const environmentPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'get', path: LIST, permission: 'READ', summary: 'The environments page', success: { status: 200, description: 'An HTML page' },
    handle: ({ c, deps }) => environmentsPage(c, deps),
  }),
  defineRoute({
    ...page, method: 'post', path: LIST, permission: 'ADMIN', summary: 'Create an environment (`name`, `type`)', success: BACK,
    handle: async ({ c, deps, principal, registry }) => {
      const form = c.get('form') ?? {};
      const parsed = v.safeParse(CreateEnvironmentSchema, { name: (form['name'] ?? '').trim(), type: form['type'] ?? '' });
      if (!parsed.success) return environmentsPage(c, deps, 400, { form: 'create', error: { kind: 'ValidationError', message: formatIssues(parsed.issues).message }, fields: ['name', 'type'] });
      return answer(c, deps, await createEnvironment(registry, parsed.output, principal), 'create', 'created', parsed.output.name, ['name', 'type']);
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${ONE}/type`, permission: 'ADMIN', params: EnvironmentParamsSchema, success: BACK,
    summary: 'Change an environment\'s type',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = `type:${params.name}`;
      const parsed = v.safeParse(UpdateEnvironmentSchema, { type: c.get('form')?.['type'] ?? '' });
      if (!parsed.success) return environmentsPage(c, deps, 400, { form, error: { kind: 'ValidationError', message: formatIssues(parsed.issues).message }, fields: ['type'] });
      return answer(c, deps, await updateEnvironment(registry, { name: params.name, type: parsed.output.type }, principal), form, 'saved', params.name, ['type']);
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${ONE}/move`, permission: 'ADMIN', params: EnvironmentParamsSchema, success: BACK,
    summary: 'Move an environment one place up (`direction=up`) or down in the sort order',
    handle: async ({ c, deps, params, principal, registry }) => {
      const order = registry.service.state.environments.map((e) => ({ name: e.name, sortOrder: e.sortOrder }));
      const at = order.findIndex((e) => e.name === params.name);
      if (at < 0) return environmentsPage(c, deps, 404, { form: 'move', error: { kind: 'NotFoundError', message: `Could not find environment with name: ${params.name}` }, fields: [] });
      const to = c.get('form')?.['direction'] === 'up' ? at - 1 : at + 1;
      if (to < 0 || to >= order.length) return back(c, 'moved', params.name);
      const [a, b] = [order[at]!, order[to]!];
      // Two distinct places swap; equal ones (ties sorted by name) need every place numbered anew.
      const changes = a.sortOrder !== b.sortOrder
        ? [{ name: a.name, sortOrder: b.sortOrder }, { name: b.name, sortOrder: a.sortOrder }]
        : (() => { [order[at], order[to]] = [b, a]; return order.map((e, i) => ({ name: e.name, sortOrder: i + 1 })); })();
      return answer(c, deps, await sortEnvironments(registry, { order: changes }, principal), 'move', 'moved', params.name);
    },
  }),
  ...(['on', 'off'] as const).map((state) => defineRoute({
    ...page, method: 'post', path: `${ONE}/${state}`, permission: 'ADMIN', params: EnvironmentParamsSchema, success: BACK,
    summary: state === 'on' ? 'Turn an environment on' : 'Turn an environment off (projects that have it keep it)',
    handle: async ({ c, deps, params, principal, registry }) =>
      answer(c, deps, await toggleEnvironment(registry, { name: params.name, enabled: state === 'on' }, principal), `toggle:${params.name}`, state, params.name),
  })),
  defineRoute({
    ...page, method: 'post', path: `${ONE}/delete`, permission: 'ADMIN', params: EnvironmentParamsSchema, success: BACK,
    summary: 'Delete an environment no flag or token uses (refused with the reason otherwise)',
    handle: async ({ c, deps, params, principal, registry }) => answer(c, deps, await deleteEnvironment(registry, params, principal), `delete:${params.name}`, 'deleted'),
  }),
];
