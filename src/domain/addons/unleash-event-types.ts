/**
 * Unleash's event type names (its `src/lib/events`), as addons receive them and as a provider lists them. The
 * lists below are the event lists of Unleash's provider definitions, in their order, so `GET /api/admin/addons`
 * answers the same `providers[].events`.
 */

/** The flag events a flag-centred provider (Teams, Slack, Datadog, New Relic) offers, in Unleash's order. */
const FLAG_EVENTS = [
  'feature-created', 'feature-updated', 'feature-archived', 'feature-revived', 'feature-stale-on', 'feature-stale-off',
  'feature-environment-enabled', 'feature-environment-disabled', 'feature-strategy-remove', 'feature-strategy-update',
  'feature-strategy-add', 'feature-metadata-updated',
] as const;

/**
 * The change-request events (Unleash Enterprise). flagpole's change requests record their own events; their
 * mapping to these names lives beside the other mappings (`src/addons/unleash-events.ts`).
 */
export const CHANGE_REQUEST_EVENTS = [
  'change-added', 'change-discarded', 'change-edited', 'change-request-applied', 'change-request-approval-added',
  'change-request-approved', 'change-request-cancelled', 'change-request-created', 'change-request-discarded',
  'change-request-rejected', 'change-request-sent-to-review', 'change-request-scheduled',
  'change-request-scheduled-application-success', 'change-request-scheduled-application-failure',
  'change-request-schedule-suspended',
] as const;

const RELEASE_PLAN_EVENTS = ['release-plan-progressions-paused', 'release-plan-progressions-resumed'] as const;

/** The webhook's list. */
export const WEBHOOK_EVENTS: readonly string[] = [
  'feature-created', 'feature-updated', 'feature-archived', 'feature-revived', 'feature-stale-on', 'feature-stale-off',
  'feature-completed', 'feature-environment-enabled', 'feature-environment-disabled', 'feature-strategy-remove',
  'feature-strategy-update', 'feature-strategy-add', 'feature-metadata-updated', 'feature-variants-updated',
  'feature-project-change', 'feature-tagged', 'feature-untagged', 'change-request-created', 'change-request-discarded',
  'change-added', 'change-discarded', 'change-request-approved', 'change-request-approval-added',
  'change-request-cancelled', 'change-request-sent-to-review', 'change-request-applied', 'change-request-scheduled',
  'change-request-scheduled-application-success', 'change-request-scheduled-application-failure',
  'change-request-schedule-suspended', 'feature-potentially-stale-on', ...RELEASE_PLAN_EVENTS,
];

/** The deprecated Slack webhook's list. */
export const SLACK_EVENTS: readonly string[] = [
  ...FLAG_EVENTS, 'feature-variants-updated', 'feature-project-change', 'feature-potentially-stale-on', ...RELEASE_PLAN_EVENTS,
];

/** The Teams lists (the deprecated connector and the workflow). */
export const TEAMS_EVENTS: readonly string[] = [
  ...FLAG_EVENTS, 'feature-variants-updated', 'feature-project-change', 'feature-potentially-stale-on',
  ...CHANGE_REQUEST_EVENTS, ...RELEASE_PLAN_EVENTS,
];

/** The Datadog and New Relic lists. */
export const OBSERVABILITY_EVENTS: readonly string[] = [
  ...FLAG_EVENTS, 'feature-project-change', 'feature-environment-variants-updated', 'feature-potentially-stale-on',
];

/** The App for Slack's list. */
export const SLACK_APP_EVENTS: readonly string[] = [
  'addon-config-created', 'addon-config-deleted', 'addon-config-updated', 'api-token-created', 'api-token-deleted',
  ...CHANGE_REQUEST_EVENTS, ...RELEASE_PLAN_EVENTS,
  'context-field-created', 'context-field-deleted', 'context-field-updated', 'feature-archived', 'feature-created',
  'feature-deleted', 'feature-environment-disabled', 'feature-environment-enabled', 'feature-environment-variants-updated',
  'feature-metadata-updated', 'feature-potentially-stale-on', 'feature-project-change', 'feature-revived',
  'feature-stale-off', 'feature-stale-on', 'feature-strategy-add', 'feature-strategy-remove', 'feature-strategy-update',
  'feature-tagged', 'feature-untagged', 'group-created', 'group-deleted', 'group-updated', 'banner-created',
  'banner-updated', 'banner-deleted', 'project-created', 'project-archived', 'project-deleted', 'segment-created',
  'segment-deleted', 'segment-updated', 'service-account-created', 'service-account-deleted', 'service-account-updated',
  'user-created', 'user-deleted', 'user-updated', 'user-access-request-registered', 'user-access-request-approved',
  'user-access-request-rejected',
];
