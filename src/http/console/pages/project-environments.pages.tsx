/**
 * The environment forms of a project's settings: connect, disconnect, and the default strategy per environment
 * (the flag page's strategy form, validated by the API's `StrategySchema`). The API's routes' use cases and
 * permission (`UPDATE_PROJECT`); a refusal shows the settings page again with the message next to its field.
 */
import * as v from 'valibot';
import { formatIssues } from '../../../schemas/issues.js';
import { ProjectEnvironmentParamsSchema, ProjectParamsSchema } from '../../../schemas/params.schema.js';
import { StrategySchema } from '../../../schemas/strategy.schema.js';
import { connectEnvironment, disconnectEnvironment } from '../../../use-cases/projects.use-cases.js';
import { setDefaultStrategy } from '../../../use-cases/toggles.use-cases.js';
import { defineRoute, type RouteSpec } from '../../route.js';
import { bodyOf, draftFromForm, fieldOfMessage } from '../strategy-form-fields.js';
import { idOf } from '../views/flag/form-parts.js';
import { backToSettings, refusedSettings } from './project-settings-render.js';

const ENVIRONMENTS = '/projects/:projectId/settings/environments';
const page = { tag: 'Console', authentication: 'session', page: true } as const;
const BACK = { status: 303, description: 'Back to the settings page' };

export const projectEnvironmentPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'post', path: ENVIRONMENTS, permission: 'UPDATE_PROJECT', params: ProjectParamsSchema, success: BACK,
    summary: 'Connect an enabled environment (`environment`) to the project',
    handle: async ({ c, deps, params, principal, registry }) => {
      const environment = c.get('form')?.['environment'] ?? '';
      const connected = await connectEnvironment(registry, { projectId: params.projectId, environment }, principal);
      if (!connected.ok) return refusedSettings(c, deps, params.projectId, { form: 'connect', field: null, error: connected.error });
      return backToSettings(c, params.projectId, 'connected', idOf('project-env', environment));
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${ENVIRONMENTS}/:environment/disconnect`, permission: 'UPDATE_PROJECT', params: ProjectEnvironmentParamsSchema, success: BACK,
    summary: 'Disconnect an environment from the project (its flags\' settings there go)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const disconnected = await disconnectEnvironment(registry, params, principal);
      if (!disconnected.ok) return refusedSettings(c, deps, params.projectId, { form: `disconnect:${params.environment}`, field: null, error: disconnected.error });
      return backToSettings(c, params.projectId, 'disconnected', 'environments');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${ENVIRONMENTS}/:environment/default-strategy`, permission: 'UPDATE_PROJECT', params: ProjectEnvironmentParamsSchema, success: BACK,
    summary: 'Set the default strategy of an environment of the project',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = `default:${params.environment}`;
      const draft = draftFromForm(c.get('form') ?? {});
      const parsed = v.safeParse(StrategySchema, bodyOf(draft));
      if (!parsed.success) {
        const { message } = formatIssues(parsed.issues);
        return refusedSettings(c, deps, params.projectId, { form, field: fieldOfMessage(message), error: { kind: 'ValidationError', message }, draft });
      }
      const saved = await setDefaultStrategy(registry, { ...params, strategy: parsed.output }, principal);
      if (!saved.ok) return refusedSettings(c, deps, params.projectId, { form, field: fieldOfMessage(saved.error.message), error: saved.error, draft });
      return backToSettings(c, params.projectId, 'strategy', idOf('project-env', params.environment));
    },
  }),
];
