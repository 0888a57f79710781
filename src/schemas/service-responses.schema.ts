/**
 * Answers about the service's records: context fields, strategy definitions, environments, roles, users, tokens, segments.
 * Typed views (`src/http/answers/views.ts`) and the OpenAPI document read them; nothing is parsed with them on the hot path.
 */
import * as v from 'valibot';
import { ConstraintSchema } from './constraint.schema.js';

const isoDate = v.pipe(v.string(), v.isoTimestamp());

/** A context field (Unleash's `contextFieldSchema`). */
export const ContextFieldView = v.object({
  name: v.string(), description: v.nullable(v.string()), stickiness: v.boolean(), sortOrder: v.number(), createdAt: v.nullable(v.string()),
  usedInFeatures: v.number(), usedInProjects: v.number(), legalValues: v.array(v.object({ value: v.string(), description: v.optional(v.string()) })),
});
/** Every context field. */
export const ContextFieldsView = v.array(ContextFieldView);
/** The strategies constraining on a context field (Unleash's `contextFieldStrategiesSchema`). */
export const ContextFieldStrategiesView = v.object({
  strategies: v.array(v.object({ id: v.string(), projectId: v.string(), featureName: v.string(), strategyName: v.string(), environment: v.string() })),
});
/** A strategy definition (Unleash's `strategySchema`). */
export const StrategyDefinitionView = v.object({
  name: v.string(), title: v.nullable(v.string()), displayName: v.nullable(v.string()), description: v.nullable(v.string()), editable: v.boolean(), deprecated: v.boolean(),
  parameters: v.array(v.object({ name: v.string(), type: v.string(), description: v.string(), required: v.boolean() })),
});
/** Every strategy definition. */
export const StrategyDefinitionsView = v.object({ version: v.literal(1), strategies: v.array(StrategyDefinitionView) });

/** An environment of the service. */
export const EnvironmentView = v.object({ name: v.string(), type: v.string(), sortOrder: v.number(), enabled: v.boolean(), protected: v.boolean() });
/** An environment as the list and `GET .../:name` answer it: Unleash 6.10's counts beside it (`requiredApprovals` is Enterprise's: null). */
export const ListedEnvironmentView = v.object({
  ...EnvironmentView.entries, requiredApprovals: v.null(),
  projectCount: v.optional(v.number()), apiTokenCount: v.optional(v.number()), enabledToggleCount: v.optional(v.number()),
});
/** Every environment of the service. */
export const EnvironmentListView = v.object({ version: v.literal(1), environments: v.array(ListedEnvironmentView) });
/** `GET /api/admin/environments/project/:projectId` (Unleash's `environmentsProjectSchema`). */
export const ProjectEnvironmentListView = v.object({
  version: v.literal(1),
  environments: v.array(v.object({
    ...EnvironmentView.entries, requiredApprovals: v.null(), projectApiTokenCount: v.number(), projectEnabledToggleCount: v.number(),
    defaultStrategy: v.optional(v.record(v.string(), v.unknown())), visible: v.boolean(),
  })),
});

/** A built-in role. */
export const RoleView = v.object({ id: v.number(), name: v.string(), type: v.picklist(['root', 'project']), description: v.string() });
/** The built-in roles. */
export const RoleListView = v.object({ version: v.literal(1), roles: v.array(RoleView) });

/** A user (it holds nothing secret). */
export const UserView = v.object({
  id: v.number(), name: v.nullable(v.string()), email: v.nullable(v.string()), username: v.nullable(v.string()), rootRole: v.number(), createdAt: isoDate,
});
/** Every user, with the root roles. */
export const UserListView = v.object({ users: v.array(UserView), rootRoles: v.array(RoleView) });

/** A token as listings show it: never the secret nor its hash. */
export const TokenView = v.object({
  id: v.string(), tokenName: v.string(), type: v.picklist(['admin', 'client', 'frontend', 'personal']), projects: v.array(v.string()), environment: v.string(),
  createdAt: isoDate, expiresAt: v.nullable(isoDate), prefix: v.string(), userId: v.optional(v.number()),
});
/** The tokens a caller may see. */
export const TokenListView = v.object({ tokens: v.array(TokenView) });
/** A token just created: the only answer that carries its `secret`. */
export const CreatedTokenView = v.object({ ...TokenView.entries, secret: v.string(), description: v.optional(v.string()) });

/** A segment (Unleash 6.10's `adminSegmentSchema` without the usage counts); `project` null for a global one. */
export const SegmentView = v.object({
  id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  project: v.nullable(v.string()),
  constraints: v.array(ConstraintSchema),
  createdAt: isoDate,
  createdBy: v.nullable(v.string()),
});
export type SegmentView = v.InferOutput<typeof SegmentView>;
/** Every segment. */
export const SegmentListView = v.object({ segments: v.array(SegmentView) });
