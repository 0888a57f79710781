import { BUILT_IN_CONTEXT_FIELDS, BUILT_IN_STRATEGIES } from '../domain/definitions.js';
import { PROJECT_OWNER, ROOT_ADMIN } from '../domain/roles.js';
import { SIMPLE_TAG_TYPE, type ServiceState } from '../domain/service-state.js';
import type { ProjectMeta } from '../domain/types.js';

/**
 * What a new data directory starts with: its environments (`production` of type production, the others
 * development), user 1 (root Admin), and project `default` owned by that user.
 *
 * @example firstStart(['development', 'production'], new Date().toISOString()).project.id // 'default'
 */
export function firstStart(environments: string[], at: string): { service: ServiceState; project: ProjectMeta } {
  const service: ServiceState = {
    environments: environments.map((name, i) => ({ name, type: name === 'production' ? 'production' : 'development', sortOrder: i + 1, enabled: true, protected: false })),
    users: { '1': { id: 1, name: 'admin', email: null, username: 'admin', rootRole: ROOT_ADMIN, createdAt: at } },
    passwords: {},
    nextUserId: 2,
    tokens: {},
    segments: {},
    nextSegmentId: 1,
    tagTypes: [SIMPLE_TAG_TYPE],
    contextFields: [...BUILT_IN_CONTEXT_FIELDS],
    strategyDefinitions: [...BUILT_IN_STRATEGIES],
  };
  const project: ProjectMeta = {
    id: 'default', name: 'Default', description: 'Default project', createdAt: at,
    environments, defaultStrategies: {}, members: { '1': PROJECT_OWNER },
  };
  return { service, project };
}
