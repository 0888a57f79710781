/**
 * The environment forms of a project's settings: connect, disconnect, and the default strategy per environment
 * (the flag page's strategy form, validated by the API's `StrategySchema`). The API's routes' use cases and
 * permission (`UPDATE_PROJECT`); a refusal shows the settings page again with the messages next to their fields.
 */
import { ProjectEnvironmentParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import { connectEnvironment, disconnectEnvironment } from '../../use-cases/projects.use-cases.js';
import { setDefaultStrategy } from '../../use-cases/toggles.use-cases.js';
import { inputOf } from '../../http/route.js';
import { buttonForm } from '../forms/flag.forms.js';
import { ConnectForm } from '../forms/project.forms.js';
import { StrategyForm } from '../forms/strategy.form.js';
import { definePage } from '../page.js';
import { idOf } from '../views/form-parts.js';
import { refusedSettings, settingsDone } from './project-settings-render.js';

const ENVIRONMENTS = '/projects/:projectId/settings/environments';
const BACK = { status: 303, description: 'Back to the settings page' };

export const projectEnvironmentPages = [
  definePage({
    method: 'post', path: ENVIRONMENTS, permission: 'UPDATE_PROJECT', params: ProjectParamsSchema, form: ConnectForm, success: BACK,
    summary: 'Connect an enabled environment (`environment`) to the project',
    handle: ({ registry, params, form, principal }) => connectEnvironment(registry, inputOf(params, form), principal),
    done: (_, { params, form }) => settingsDone(params.projectId, 'connected', idOf('project-env', form.environment)),
    refused: refusedSettings,
  }),
  definePage({
    method: 'post', path: `${ENVIRONMENTS}/:environment/disconnect`, permission: 'UPDATE_PROJECT', params: ProjectEnvironmentParamsSchema, form: buttonForm('disconnect'), success: BACK,
    summary: 'Disconnect an environment from the project (its flags\' settings there go)',
    handle: ({ registry, params, principal }) => disconnectEnvironment(registry, params, principal),
    done: (_, { params }) => settingsDone(params.projectId, 'disconnected', 'environments'),
    refused: (call, refusal) => refusedSettings(call, refusal, `disconnect:${call.params.environment}`),
  }),
  definePage({
    method: 'post', path: `${ENVIRONMENTS}/:environment/default-strategy`, permission: 'UPDATE_PROJECT', params: ProjectEnvironmentParamsSchema, form: StrategyForm, success: BACK,
    summary: 'Set the default strategy of an environment of the project',
    handle: ({ registry, params, form, principal }) => setDefaultStrategy(registry, inputOf(params, { strategy: form }), principal),
    done: (_, { params }) => settingsDone(params.projectId, 'strategy', idOf('project-env', params.environment)),
    refused: (call, refusal) => refusedSettings(call, refusal, `default:${call.params.environment}`),
  }),
];
