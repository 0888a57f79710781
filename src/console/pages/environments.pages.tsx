/** @jsxImportSource hono/jsx */
/**
 * The environments page (`/admin/environments`) and its forms: create, change type, move up or down, turn on
 * or off, delete. Each calls the use case the API's environment route calls, with that route's permission; a
 * refusal shows the page again with the API's messages (next to the fields they name).
 */
import type { Context } from 'hono';
import { isAllowed } from '../../auth/permissions.js';
import { listEnvironments } from '../../queries/environments.query.js';
import { EnvironmentParamsSchema } from '../../schemas/params.schema.js';
import { createEnvironment, deleteEnvironment, sortEnvironments, toggleEnvironment, updateEnvironment } from '../../use-cases/environments.use-cases.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { EnvironmentTypeForm, NewEnvironmentForm } from '../forms/admin.forms.js';
import { buttonForm, MoveForm } from '../forms/flag.forms.js';
import type { Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { renderPage } from '../render.js';
import { EnvironmentsPage } from '../views/environments/environments-page.js';
import { idOf } from '../views/form-parts.js';
import { done, noticeOf, type Done } from '../notices.js';

const LIST = '/admin/environments';
const ONE = '/admin/environments/:name';
const BACK = { status: 303, description: 'Back to the environments page' };

function environmentsPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, error?: Refusal<unknown>): Response {
  return renderPage(c, (
    <EnvironmentsPage environments={listEnvironments(deps.registry)} mayChange={isAllowed(c.get('principal'), 'ADMIN', undefined)}
      error={error} notice={noticeOf('environments', c.req.query('done'))} />
  ));
}

/** After a change: back to the list, its row in view. */
const back = (key: Done<'environments'>, name?: string) => done(LIST, 'environments', key, name ? idOf('env', name) : '');

/** The page again with a refused form (`form`: its name on the page). */
const refused = (form?: (name: string) => string) => (call: { c: Context<ConsoleEnv>; deps: ConsoleDeps; params: unknown }, refusal: Refusal<unknown>) =>
  environmentsPage(call.c, call.deps, { ...refusal, form: form ? form((call.params as { name: string }).name) : refusal.form });

export const environmentPages = [
  definePage({
    method: 'get', path: LIST, permission: 'READ', summary: 'The environments page',
    handle: ({ c, deps }) => environmentsPage(c, deps),
  }),
  definePage({
    method: 'post', path: LIST, permission: 'ADMIN', form: NewEnvironmentForm, success: BACK, summary: 'Create an environment (`name`, `type`)',
    handle: ({ registry, form, principal }) => createEnvironment(registry, form, principal),
    done: (created) => back('created', created.name),
    refused: refused(),
  }),
  definePage({
    method: 'post', path: `${ONE}/type`, permission: 'ADMIN', params: EnvironmentParamsSchema, form: EnvironmentTypeForm, success: BACK,
    summary: 'Change an environment\'s type',
    handle: ({ registry, params, form, principal }) => updateEnvironment(registry, { name: params.name, type: form.type }, principal),
    done: (_, { params }) => back('saved', params.name),
    refused: refused((name) => `type:${name}`),
  }),
  definePage({
    method: 'post', path: `${ONE}/move`, permission: 'ADMIN', params: EnvironmentParamsSchema, form: MoveForm, success: BACK,
    summary: 'Move an environment one place up (`direction=up`) or down in the sort order',
    handle: ({ registry, params, form, principal }) => {
      const order = registry.service.state.environments.map((e) => ({ name: e.name, sortOrder: e.sortOrder }));
      const at = order.findIndex((e) => e.name === params.name);
      if (at < 0) return { ok: false, error: { kind: 'NotFoundError', message: `Could not find environment with name: ${params.name}` } };
      const to = form.direction === 'up' ? at - 1 : at + 1;
      if (to < 0 || to >= order.length) return { ok: true, value: null };
      const [a, b] = [order[at]!, order[to]!];
      // Two distinct places swap; equal ones (ties sorted by name) need every place numbered anew.
      const changes = a.sortOrder !== b.sortOrder
        ? [{ name: a.name, sortOrder: b.sortOrder }, { name: b.name, sortOrder: a.sortOrder }]
        : (() => { [order[at], order[to]] = [b, a]; return order.map((e, i) => ({ name: e.name, sortOrder: i + 1 })); })();
      return sortEnvironments(registry, { order: changes }, principal);
    },
    done: (_, { params }) => back('moved', params.name),
    refused: refused(),
  }),
  ...(['on', 'off'] as const).map((state) => definePage({
    method: 'post', path: `${ONE}/${state}`, permission: 'ADMIN', params: EnvironmentParamsSchema, form: buttonForm('toggle'), success: BACK,
    summary: state === 'on' ? 'Turn an environment on' : 'Turn an environment off (projects that have it keep it)',
    handle: ({ registry, params, principal }) => toggleEnvironment(registry, { name: params.name, enabled: state === 'on' }, principal),
    done: (_, { params }) => back(state, params.name),
    refused: refused((name) => `toggle:${name}`),
  })),
  definePage({
    method: 'post', path: `${ONE}/delete`, permission: 'ADMIN', params: EnvironmentParamsSchema, form: buttonForm('delete'), success: BACK,
    summary: 'Delete an environment no flag or token uses (refused with the reason otherwise)',
    handle: ({ registry, params, principal }) => deleteEnvironment(registry, params, principal),
    done: () => back('deleted'),
    refused: refused((name) => `delete:${name}`),
  }),
];
