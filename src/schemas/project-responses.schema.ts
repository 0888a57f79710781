/**
 * Answers about projects: the flag list and overview, the project and its list, members and history.
 * Typed views (`src/http/answers/views.ts`) and the OpenAPI document read them; nothing is parsed with them on the hot path.
 */
import * as v from 'valibot';
import { RoleView } from './service-responses.schema.js';
import { FLAG_TYPES } from './feature.schema.js';

const isoDate = v.pipe(v.string(), v.isoTimestamp());

/** A feature summary (docs/admin-contract.md §2.2, with the flag's tags) (the list and the overview). */
export const FeatureSummaryView = v.object({
  name: v.string(),
  type: v.picklist(FLAG_TYPES),
  stale: v.boolean(),
  createdAt: isoDate,
  lastSeenAt: v.nullable(isoDate),
  environments: v.array(v.object({ name: v.string(), displayName: v.string(), enabled: v.boolean() })),
  tags: v.array(v.object({ value: v.string(), type: v.string() })),
});

/** The flag list (docs/admin-contract.md §4.2). */
export const FeatureListView = v.object({ version: v.literal(2), features: v.array(FeatureSummaryView) });

/** The overview (docs/admin-contract.md §2.1). */
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
