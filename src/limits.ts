/**
 * Every limit of the service, in one place (docs/limits.md explains each number). Two kinds:
 *
 * - `SHAPE_LIMITS` bound one request: they are part of the schemas, checked before any work is done, and
 *   fixed (a body is also bounded by `BODY_LIMIT` as a whole).
 * - `Limits` bound what accumulates (strategies on a flag, flags in a project, projects, ...): they are
 *   decided in the mailbox that serializes the writes they count, and configurable through `LIMIT_*`
 *   environment variables (`src/config.ts`).
 */

/** Bounds of one request's shape; the schemas import them. */
export const SHAPE_LIMITS = {
  /** Largest body of a request, bytes, unless `BODY_LIMIT` says otherwise. */
  bodyBytes: 1024 * 1024,
  /** Deepest nesting of arrays and objects in a JSON body. */
  bodyDepth: 64,
  /** Characters of a flag, project, environment, variant or strategy name. */
  name: 100,
  /** Characters of a description. */
  description: 10_000,
  /** Characters of a tag value and of a tag type name (Unleash 6.10: 2 to 50), of a tag type's description and icon. */
  tagMin: 2,
  tag: 50,
  tagTypeDescription: 1000,
  tagTypeIcon: 100,
  /** Tags added or removed in one request (to each listed flag). */
  tagChanges: 100,
  /** Legal values of one context field (each at most 100 characters, as Unleash), and parameters of one strategy definition. */
  legalValues: 1000,
  definitionParameters: 100,
  /** Characters of a context field's or strategy definition's description (Unleash 6.10: 250 for a context field). */
  definitionDescription: 1000,
  /** Variant names one dependency may require of its parent. */
  dependencyVariants: 100,
  /** Operations in one JSON Patch. */
  patchOperations: 100,
  /** Constraints of one strategy. */
  constraints: 100,
  /** Values of one constraint. */
  constraintValues: 1000,
  /** Characters of one constraint value. */
  constraintValue: 100,
  /** Parameters of one strategy, and characters of one parameter value. */
  parameters: 100,
  parameterValue: 10_000,
  /** Variants of one strategy or flag, overrides of one variant, values of one override. */
  variants: 100,
  overrides: 100,
  overrideValues: 1000,
  /** Characters of a variant payload. */
  payload: 10_000,
  /** Segments one strategy may reference. */
  strategySegments: 10,
  /** Strategies in one `set-sort-order` request; strategy ids in one `strategies/copy` request. */
  strategyOrders: 1000,
  /**
   * Export and import in Unleash 6.10's format (`/api/admin/features-batch/*`): flags one export may hold and one
   * import may bring, and the entries of each other list of an import (strategies, environments, tags, ...). The
   * import's body has its own byte limit, `IMPORT_BODY_LIMIT` (src/config.ts).
   */
  importFlags: 20_000,
  importItems: 400_000,
  /** Largest import body, bytes, unless `IMPORT_BODY_LIMIT` says otherwise (10,000 rich flags are about 15 MB). */
  importBodyBytes: 64 * 1024 * 1024,
  /** Environment names one request lists: a new project's environments, the entries of an environment sort order. */
  environmentNames: 1000,
  /** Flag names in one batch (delete, revive, bulk stale, archive, on/off). */
  batch: 1000,
  /** Flag search (`GET /api/admin/search/features`): characters of the free text and of each filter, values one filter lists, largest page and offset. */
  searchText: 1000,
  searchFilterValues: 100,
  searchPage: 100,
  searchOffset: 1_000_000,
  /** An evaluation context (frontend API, playground): properties (and unknown top-level fields) in all, and characters of one value. */
  contextProperties: 50,
  contextValue: 1000,
  /** Characters of a context property name. */
  contextPropertyName: 100,
  /** Issues an error body lists, and characters of each issue's message. */
  errorIssues: 10,
  errorMessage: 300,
  /** Flags in one usage-metrics bucket (`POST /api/client/metrics`). */
  metricsFlags: 10_000,
  /** Variant names counted for one flag in one usage-metrics bucket. */
  metricsVariants: 1000,
  /** Characters of an SDK's `appName`, `instanceId`, `sdkVersion`, a strategy name it registers, and a date it sends. */
  clientName: 255,
  /** Strategy names one SDK registration lists. */
  clientStrategies: 1000,
  /** Tokens one `POST /edge/validate` lists, and characters of each (a longer text is no token). */
  edgeTokens: 1000,
  edgeToken: 1000,
  /** Applications and metric entries one `POST /api/client/metrics/bulk` carries (Unleash Edge sends batches under 100 KB). */
  bulkApplications: 1000,
  bulkMetrics: 10_000,
  /** An addon's body: parameters, characters of a parameter name and value, event types and project or environment names it lists. */
  addonParameters: 50,
  addonParameterValue: 64 * 1024,
  addonEvents: 500,
  addonFilters: 1000,
} as const;

/**
 * What one address may ask of `POST /edge/validate` (no token needed, so anyone can call it): `tokensPerWindow`
 * token lookups per `windowMs` (a call costs one lookup per listed token, at least one), for at most `addresses`
 * addresses at once (past that, the oldest window is forgotten).
 */
export const EDGE_VALIDATE_BUDGET = {
  tokensPerWindow: 10_000,
  windowMs: 60_000,
  addresses: 10_000,
} as const;

/**
 * Snapshots kept on disk besides the two newest, spread over the log (docs/storage.md "Snapshots and
 * retention"): a past view, and a recovery that meets a damaged snapshot, start from the nearest of them.
 */
export const SNAPSHOTS_SPREAD = 8;

/**
 * Log records after which a snapshot is due once the log has grown by as many bytes as the last snapshot took
 * (rather than twice as many): a past view then replays at most about this many records from the snapshot before
 * it, in a few hundred milliseconds at 10,000 flags (docs/storage.md "Snapshots and retention").
 */
export const SNAPSHOT_REPLAY_RECORDS = 20_000;

/** The default byte budget of every project's past-view checkpoints (`PAST_VIEW_CHECKPOINT_BYTES`, docs/limits.md "Past views"). */
export const PAST_VIEW_CHECKPOINT_BYTES = 128 * 2 ** 20;

/**
 * Bounds of the usage metrics kept in memory and on disk (`src/actors/usage-actor.ts`). Usage is not a
 * write anyone is refused: past a bound the oldest entry is dropped, never the request.
 */
export const USAGE_BOUNDS = {
  /** Hours of counts kept: older hourly buckets are dropped at the next flush. */
  retentionHours: 48,
  /** Registered applications; the one seen least recently is dropped first. */
  applications: 1000,
  /** Registered instances (of all applications); the one seen least recently is dropped first, and any unseen for `retentionHours`. */
  instances: 10_000,
  /** Distinct variant names counted for one flag in one environment and hour; later names are not counted. */
  variantsPerBucket: 100,
  /** Applications remembered per flag (`seenApplications`); the one seen least recently is dropped first. */
  applicationsPerFlag: 100,
  /** Projects, and environments per project, remembered in one application's `usage`. */
  applicationUsage: 100,
} as const;

/**
 * Bounds of addon deliveries (`src/actors/addon-deliveries.ts`, docs/limits.md "Integrations"): what the delivery
 * log keeps per addon (older entries are deleted as new ones come), what an attempt reads of a receiver's answer,
 * and how many log records a delivery loop reads from the store at a time.
 */
export const ADDON_DELIVERY_BOUNDS = {
  logEntriesPerAddon: 200,
  answerBytes: 64 * 1024,
  recordsPerRead: 100,
} as const;

/**
 * Bounds of `flagpole migrate` (docs/migration.md): the largest answer it reads from an Unleash (an export of
 * 500 flags with large strategies is a few MB; a hostile or mistaken server cannot fill the memory).
 */
export const MIGRATE_BOUNDS = {
  answerBytes: 256 * 1024 * 1024,
} as const;

/** Bounds of what accumulates; each is decided in the mailbox that serializes the writes it counts. */
export interface Limits {
  /** Strategies of one flag in one environment (Unleash 6.10's `featureEnvironmentStrategies`: 30). */
  strategiesPerEnvironment: number;
  /** Bytes of one flag as stored (all its environments, strategies and variants). */
  flagBytes: number;
  /** Flags of one project, archived ones included. */
  flagsPerProject: number;
  /** Environments of the service (Unleash 6.10: 50). */
  environments: number;
  /** Projects of the service (Unleash 6.10: 500). */
  projects: number;
  /** Members of one project. */
  membersPerProject: number;
  /** Users of the service. */
  users: number;
  /** API and personal tokens of the service (Unleash 6.10's `apiTokens`: 2000). */
  apiTokens: number;
  /** Segments of the service (Unleash 6.10's `segments`: 300). */
  segments: number;
  /** Constraint values of one segment, all its constraints together (Unleash 6.10's `segmentValues`: 1000; 250 here). */
  segmentValues: number;
  /** Tags of one flag (Unleash 6.10 sets none). */
  tagsPerFlag: number;
  /** Tag types of the service (Unleash 6.10 sets none). */
  tagTypes: number;
  /** Parents one flag depends on (Unleash 6.10 sets none; its UI adds one). */
  parentsPerFlag: number;
  /** Context fields of the service, the built-in ones included (Unleash 6.10 sets none). */
  contextFields: number;
  /** Custom strategy definitions of the service, the built-in ones not counted (Unleash 6.10 sets none). */
  strategyDefinitions: number;
  /** Addons (integrations) of the service (Unleash 6.10 sets none). */
  addons: number;
}

/** The defaults; docs/limits.md says why each. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  strategiesPerEnvironment: 30,
  flagBytes: 1024 * 1024,
  flagsPerProject: 200_000,
  environments: 50,
  projects: 500,
  membersPerProject: 1000,
  users: 10_000,
  apiTokens: 2000,
  segments: 300,
  segmentValues: 250,
  tagsPerFlag: 100,
  tagTypes: 100,
  parentsPerFlag: 10,
  contextFields: 100,
  strategyDefinitions: 100,
  addons: 50,
});

/** The environment variable of each configurable limit. */
export const LIMIT_VARIABLES: Readonly<Record<keyof Limits, string>> = Object.freeze({
  strategiesPerEnvironment: 'LIMIT_STRATEGIES_PER_ENVIRONMENT',
  flagBytes: 'LIMIT_FLAG_BYTES',
  flagsPerProject: 'LIMIT_FLAGS_PER_PROJECT',
  environments: 'LIMIT_ENVIRONMENTS',
  projects: 'LIMIT_PROJECTS',
  membersPerProject: 'LIMIT_MEMBERS_PER_PROJECT',
  users: 'LIMIT_USERS',
  apiTokens: 'LIMIT_API_TOKENS',
  segments: 'LIMIT_SEGMENTS',
  segmentValues: 'LIMIT_SEGMENT_VALUES',
  tagsPerFlag: 'LIMIT_TAGS_PER_FLAG',
  tagTypes: 'LIMIT_TAG_TYPES',
  parentsPerFlag: 'LIMIT_PARENTS_PER_FLAG',
  contextFields: 'LIMIT_CONTEXT_FIELDS',
  strategyDefinitions: 'LIMIT_STRATEGY_DEFINITIONS',
  addons: 'LIMIT_ADDONS',
});

/** The message of a refused write that would pass a limit. */
export const overLimit = (what: string, limit: number, variable: string): string =>
  `${what} is limited to ${limit} (configurable with ${variable})`;

/** How long a one-time link to set a password works after an admin made it (docs/limits.md "Sign-in"). */
export const PASSWORD_LINK_HOURS = 24;

/**
 * The defaults of `PASSWORD_CHECKS_RUNNING` / `PASSWORD_CHECKS_WAITING`: password checks (scrypt, ~32 MiB and tens
 * of milliseconds each) run at once and waiting (docs/limits.md "Sign-in"). scrypt runs on libuv's thread pool, 4
 * threads unless `UV_THREADPOOL_SIZE`, which LevelDB's writes share; two running leave the others to the store.
 * Past `waiting`, a check is refused (503).
 */
export const PASSWORD_CHECKS = {
  running: 2,
  waiting: 32,
} as const;

/**
 * Live-update streams of the console (`/projects/:projectId/events`, one per open project or flag page): in
 * all, per session and per user (docs/limits.md "Console live updates"). A person's tabs share a browser's six
 * connections per site over HTTP/1.1 anyway; the bounds keep one person from holding every stream.
 */
export const LIVE_PAGE_STREAMS = {
  total: 1000,
  perSession: 16,
  perUser: 32,
} as const;
