/**
 * Shapes of the answers, as valibot schemas: the OpenAPI document's response schemas come from here, and
 * the views in `src/http/views.ts` are typed by them, so a view and its documentation cannot drift apart.
 * They describe what the service sends; nothing is parsed with them on the hot path.
 */
import * as v from 'valibot';
import { ConstraintSchema } from './constraint.schema.js';
import { FLAG_TYPES } from './feature.schema.js';
import { StrategyRecordSchema } from './strategy.schema.js';
import { VariantSchema } from './variant.schema.js';

const isoDate = v.pipe(v.string(), v.isoTimestamp());

/** The flag record of seed 2.3 plus `impressionData`: the answer of create, update, patch and clone. */
export const FlagRecordView = v.object({
  name: v.string(),
  description: v.string(),
  type: v.picklist(FLAG_TYPES),
  project: v.string(),
  stale: v.boolean(),
  impressionData: v.boolean(),
  createdAt: isoDate,
  lastSeenAt: v.nullable(isoDate),
  variants: v.nullable(v.array(VariantSchema)),
});
export type FlagRecordView = v.InferOutput<typeof FlagRecordView>;

/** An archived flag in `GET /api/admin/archive/features/:projectId` (Unleash 6.10 `archivedFeatureSchema`). */
export const ArchivedFlagView = v.object({
  ...v.omit(FlagRecordView, ['lastSeenAt', 'variants']).entries,
  archivedAt: v.nullable(isoDate),
  lastSeenAt: v.nullable(isoDate),
});
export type ArchivedFlagView = v.InferOutput<typeof ArchivedFlagView>;

/** A stored strategy. */
export const StrategyView = StrategyRecordSchema;

/** The single-flag GET: the record plus `archived` and every environment with its strategies. */
export const FlagDetailView = v.object({
  ...FlagRecordView.entries,
  archived: v.boolean(),
  archivedAt: v.nullable(isoDate),
  environments: v.array(v.object({
    name: v.string(),
    enabled: v.boolean(),
    type: v.string(),
    sortOrder: v.number(),
    strategies: v.array(StrategyView),
    /** When an SDK last reported the flag in this environment. */
    lastSeenAt: v.nullable(isoDate),
  })),
  /** Its tags, in the order they were added. */
  tags: v.array(v.object({ type: v.string(), value: v.string() })),
  /** Its parents (Unleash's `dependencies`) and the active flags that depend on it (`children`). */
  dependencies: v.array(v.object({ feature: v.string(), enabled: v.boolean(), variants: v.optional(v.array(v.string())) })),
  children: v.array(v.string()),
});
export type FlagDetailView = v.InferOutput<typeof FlagDetailView>;

/** A tag. */
export const TagView = v.object({ type: v.string(), value: v.string() });
/** A flag's tags (Unleash's `tagsSchema`). */
export const TagsView = v.object({ version: v.literal(1), tags: v.array(TagView) });
/** A tag type (Unleash's `tagTypeSchema`). */
export const TagTypeView = v.object({ name: v.string(), description: v.string(), icon: v.nullable(v.string()), color: v.nullable(v.string()) });
export const TagTypesView = v.object({ version: v.literal(1), tagTypes: v.array(TagTypeView) });
export const TagTypeOneView = v.object({ version: v.literal(1), tagType: TagTypeView });

/** A context field (Unleash's `contextFieldSchema`). */
export const ContextFieldView = v.object({
  name: v.string(), description: v.nullable(v.string()), stickiness: v.boolean(), sortOrder: v.number(), createdAt: v.nullable(v.string()),
  usedInFeatures: v.number(), usedInProjects: v.number(), legalValues: v.array(v.object({ value: v.string(), description: v.optional(v.string()) })),
});
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
export const StrategyDefinitionsView = v.object({ version: v.literal(1), strategies: v.array(StrategyDefinitionView) });

/** The answer of the variants endpoints (seed 4.14: a string version). */
export const VariantsView = v.object({ version: v.literal('1'), variants: v.array(VariantSchema) });

/** A feature summary of seed 2.2 (the list and the overview). */
export const FeatureSummaryView = v.object({
  name: v.string(),
  type: v.picklist(FLAG_TYPES),
  stale: v.boolean(),
  createdAt: isoDate,
  lastSeenAt: v.nullable(isoDate),
  environments: v.array(v.object({ name: v.string(), displayName: v.string(), enabled: v.boolean() })),
});

/** The flag list of seed 4.2. */
export const FeatureListView = v.object({ version: v.literal(2), features: v.array(FeatureSummaryView) });

/** The overview of seed 2.1. */
export const OverviewView = v.object({
  name: v.string(),
  description: v.string(),
  mode: v.picklist(['open', 'protected', 'private']),
  defaultStickiness: v.string(),
  createdAt: isoDate,
  updatedAt: v.nullable(isoDate),
  health: v.number(),
  members: v.number(),
  version: v.literal(1),
  environments: v.array(v.object({ environment: v.string(), defaultStrategy: v.nullable(v.record(v.string(), v.unknown())) })),
  features: v.array(FeatureSummaryView),
});

/** A project as created or updated. */
export const ProjectView = v.object({
  id: v.string(), name: v.string(), description: v.string(), createdAt: isoDate, updatedAt: v.nullable(isoDate), environments: v.array(v.string()),
  mode: v.picklist(['open', 'protected', 'private']), defaultStickiness: v.string(),
});

/** The project list. */
export const ProjectListView = v.object({
  version: v.literal(1),
  projects: v.array(v.object({
    id: v.string(), name: v.string(), description: v.string(), createdAt: isoDate, health: v.number(), featureCount: v.number(), memberCount: v.number(),
    mode: v.picklist(['open', 'protected', 'private']), defaultStickiness: v.string(),
  })),
});

/** An environment of the service. */
export const EnvironmentView = v.object({ name: v.string(), type: v.string(), sortOrder: v.number(), enabled: v.boolean(), protected: v.boolean() });
/** An environment as the list and `GET .../:name` answer it: Unleash 6.10's counts beside it (`requiredApprovals` is Enterprise's: null). */
export const ListedEnvironmentView = v.object({
  ...EnvironmentView.entries, requiredApprovals: v.null(),
  projectCount: v.optional(v.number()), apiTokenCount: v.optional(v.number()), enabledToggleCount: v.optional(v.number()),
});
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
export const RoleListView = v.object({ version: v.literal(1), roles: v.array(RoleView) });

/** A user (it holds nothing secret). */
export const UserView = v.object({
  id: v.number(), name: v.nullable(v.string()), email: v.nullable(v.string()), username: v.nullable(v.string()), rootRole: v.number(), createdAt: isoDate,
});
export const UserListView = v.object({ users: v.array(UserView), rootRoles: v.array(RoleView) });

/** A token as listings show it: never the secret nor its hash. */
export const TokenView = v.object({
  id: v.string(), tokenName: v.string(), type: v.picklist(['admin', 'client', 'frontend', 'personal']), projects: v.array(v.string()), environment: v.string(),
  createdAt: isoDate, expiresAt: v.nullable(isoDate), prefix: v.string(), userId: v.optional(v.number()),
});
export const TokenListView = v.object({ tokens: v.array(TokenView) });
/** A token just created: the only answer that carries its `secret`. */
export const CreatedTokenView = v.object({ ...TokenView.entries, secret: v.string(), description: v.optional(v.string()) });

/** The members of a project. */
export const AccessView = v.object({
  roles: v.array(RoleView),
  users: v.array(v.object({ id: v.number(), name: v.nullable(v.string()), email: v.nullable(v.string()), username: v.nullable(v.string()), roleId: v.number() })),
  groups: v.array(v.never()),
});

/** A page of a project's history. */
export const HistoryView = v.object({
  version: v.literal(1),
  events: v.array(v.object({
    seq: v.number(), type: v.string(), project: v.string(), feature: v.nullable(v.string()), environment: v.nullable(v.string()),
    by: v.string(), at: isoDate, before: v.unknown(), after: v.unknown(), environmentEnabled: v.nullable(v.boolean()),
  })),
  offset: v.number(),
  limit: v.number(),
  hasMore: v.boolean(),
});

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
export const SegmentListView = v.object({ segments: v.array(SegmentView) });

/** One hourly bucket of a flag's usage in one environment (Unleash's `featureEnvironmentMetricsSchema`). */
export const FeatureEnvironmentMetricsView = v.object({
  featureName: v.optional(v.string()),
  environment: v.string(),
  timestamp: isoDate,
  yes: v.number(),
  no: v.number(),
  variants: v.optional(v.record(v.string(), v.number())),
});

/** `GET /api/admin/client-metrics/features/:featureName` (Unleash's `featureUsageSchema`). */
export const FeatureUsageView = v.object({
  version: v.literal(1),
  maturity: v.literal('stable'),
  featureName: v.string(),
  lastHourUsage: v.array(FeatureEnvironmentMetricsView),
  seenApplications: v.array(v.string()),
});

/** `GET /api/admin/client-metrics/features/:featureName/raw` (Unleash's `featureMetricsSchema`). */
export const FeatureMetricsView = v.object({ version: v.literal(1), maturity: v.literal('stable'), data: v.array(FeatureEnvironmentMetricsView) });

/** An application in the list (Unleash's `applicationSchema`, with when it was first and last seen). */
export const ApplicationView = v.object({
  appName: v.string(),
  sdkVersion: v.optional(v.string()),
  strategies: v.array(v.string()),
  usage: v.array(v.object({ project: v.string(), environments: v.array(v.string()) })),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type ApplicationView = v.InferOutput<typeof ApplicationView>;

/** `GET /api/admin/metrics/applications` (Unleash's `applicationsSchema`). */
export const ApplicationsView = v.object({ total: v.number(), applications: v.array(ApplicationView) });

/** A running SDK instance of an application. */
export const InstanceView = v.object({
  appName: v.string(), instanceId: v.string(), sdkVersion: v.nullable(v.string()), clientIp: v.nullable(v.string()),
  environment: v.string(), createdAt: isoDate, lastSeen: isoDate,
});

/** `GET /api/admin/metrics/applications/:appName`: the application and its instances. */
export const ApplicationDetailView = v.object({
  ...ApplicationView.entries,
  instances: v.array(InstanceView),
  links: v.object({ self: v.string() }),
});
export type ApplicationDetailView = v.InferOutput<typeof ApplicationDetailView>;

/** A strategy as backend SDKs read it: no id, title, sort order or `disabled`; `segments` only when it names some. */
export const ClientStrategyView = v.object({
  name: v.string(),
  constraints: v.array(ConstraintSchema),
  parameters: v.record(v.string(), v.string()),
  variants: v.array(VariantSchema),
  segments: v.optional(v.array(v.number())),
});

/** A flag as backend SDKs read it in one environment (`GET /api/client/features/:featureName`). */
export const ClientFeatureView = v.object({
  name: v.string(),
  type: v.picklist(FLAG_TYPES),
  description: v.string(),
  project: v.string(),
  enabled: v.boolean(),
  stale: v.boolean(),
  impressionData: v.boolean(),
  strategies: v.array(ClientStrategyView),
  variants: v.array(VariantSchema),
  dependencies: v.array(v.object({ feature: v.string(), enabled: v.boolean(), variants: v.optional(v.array(v.string())) })),
});

/** A segment as backend SDKs read it. */
export const ClientSegmentView = v.object({ id: v.number(), name: v.string(), constraints: v.array(ConstraintSchema) });

/**
 * `GET /api/client/features`: `segments` only for an `Unleash-Client-Spec` of 4.2.0 or newer (else their
 * constraints are inlined into the strategies); `meta.etag` is the answer's `ETag`.
 */
export const ClientFeaturesView = v.object({
  version: v.literal(2),
  features: v.array(ClientFeatureView),
  query: v.object({
    project: v.array(v.string()),
    namePrefix: v.optional(v.string()),
    tag: v.optional(v.array(v.string())),
    environment: v.string(),
    inlineSegmentConstraints: v.boolean(),
  }),
  segments: v.optional(v.array(ClientSegmentView)),
  meta: v.object({ revisionId: v.number(), etag: v.string(), queryHash: v.string() }),
});

/**
 * `GET /api/client/delta` (and the `data` of each streamed message): `hydration` (`features`, `segments`),
 * `feature-updated` (`feature`), `feature-removed` (`featureName`, `project`), `segment-updated` (`segment`),
 * `segment-removed` (`segmentId`), each with the revision it brings the client to as `eventId`.
 */
export const ClientDeltaView = v.object({
  events: v.array(v.looseObject({
    type: v.picklist(['hydration', 'feature-updated', 'feature-removed', 'segment-updated', 'segment-removed']),
    eventId: v.number(),
  })),
});
