/**
 * Plain data shapes of a project's state. Every record here is immutable once published: a change builds a
 * new object, so a snapshot of the committed state can be serialized later without copying, and reads never
 * see a half-applied command.
 *
 * Shapes that travel over the wire (constraints, payloads, variants, strategies) are the output types of
 * their valibot schemas: one type per wire shape, inferred, never restated. The rest (a flag, its
 * environments, a project's meta) exist only as stored state.
 */
import type {
  ConstraintBody,
  FlagType,
  OverrideBody,
  PayloadBody,
  StrategyBody,
  StrategyOrderBody,
  StrategyRecord,
  StrategyVariantBody,
  VariantBody,
} from '../schemas/index.js';

export type { ConstraintOperator, FlagType } from '../schemas/index.js';
import type { CompletionStatus } from '../schemas/lifecycle.schema.js';
export type { CompletionStatus, LifecycleStage } from '../schemas/lifecycle.schema.js';
import type { ContextField, TagType } from './definitions.js';
import type { ChangeRequestSetting } from './change-request.js';

export type Constraint = ConstraintBody;
export type Payload = PayloadBody;
export type StrategyVariant = StrategyVariantBody;
/** A strategy as stored and returned (docs/api-decisions.md "Strategies"): the record a strategy PATCH must still be. */
export type Strategy = StrategyRecord;
/** A strategy before it gets an id and a place: the body of add, put and default-strategy. */
export type StrategyInput = StrategyBody;
/** A strategy's new place (`set-sort-order`). */
export type StrategyOrder = StrategyOrderBody;
export type Override = OverrideBody;
export type Variant = VariantBody;

/** A flag in one environment; `enabled` is the value of the flag-environment machine. */
export interface FlagEnvironment {
  enabled: boolean;
  strategies: Strategy[];
}

/** A flag; `archived` is the value of the flag-lifecycle machine. */
export interface Flag {
  name: string;
  description: string;
  type: FlagType;
  stale: boolean;
  impressionData: boolean;
  createdAt: string;
  lastSeenAt: string | null;
  archived: boolean;
  archivedAt: string | null;
  variants: Variant[];
  /** Bumped on every change; the ETag of the flag. */
  version: number;
  /** Keyed by environment name; holds an entry for every environment of the project. */
  environments: Record<string, FlagEnvironment>;
  /** Tags in the order they were added; absent in records written before tags (read as none). */
  tags?: Tag[];
  /** Parent flags of the same project (one level); absent in records written before dependencies (read as none). */
  dependencies?: Dependency[];
  /**
   * Who sent the command that created it, as the history names them (`user:3`, `admin-token:ci`); absent in
   * records written before it (creator unknown). Read by `GET /api/admin/flag-creators`.
   */
  createdBy?: string;
  /**
   * When the flag entered the lifecycle stages SDK reports and completion move it into (the flag-stage
   * machine's values); absent while it has entered none (`initial`, docs/api-decisions.md "Feature lifecycle").
   */
  stages?: FlagStages;
}

/** A flag's entered lifecycle stages (ISO dates); `initial` is `createdAt` and `archived` is `archivedAt`. */
export interface FlagStages {
  /** Entered `initial` again when revived (absent: at `createdAt`). */
  initial?: string;
  /** First reported by an SDK (any environment): Unleash's `pre-live`. */
  preLive?: string;
  /** First reported from a production environment where it was on: `live`. */
  live?: string;
  /** Marked completed, and how. */
  completed?: FlagCompletion;
}

/** How a flag was completed: when, whether it was kept or discarded, and what was kept (a variant's name). */
export interface FlagCompletion {
  at: string;
  status: CompletionStatus;
  statusValue?: string;
}

/** A tag on a flag: a value of a tag type (docs/api-decisions.md "Tags"). */
export interface Tag {
  type: string;
  value: string;
}

/**
 * A parent condition of a flag (docs/api-decisions.md "Dependencies"): the parent must be enabled (or, with
 * `enabled: false`, disabled); with `variants`, it must also yield one of them. `variants` is only kept when
 * `enabled` is true, as in Unleash.
 */
export interface Dependency {
  feature: string;
  enabled: boolean;
  variants?: string[];
}

/** Project-wide data that is not a flag. */
export interface ProjectMeta {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  /** Environment names connected to the project. */
  environments: string[];
  /** Default strategy per environment name (docs/admin-contract.md §4.16). */
  defaultStrategies: Record<string, StrategyInput>;
  /** userId (as string key) -> project role id. */
  members: Record<string, number>;
  /** Who may see and propose (Unleash's project mode); absent in records written before it: `open`. */
  mode?: ProjectMode;
  /** The stickiness new strategies and variants of the project default to; absent in older records: `default`. */
  defaultStickiness?: string;
  /** When the project's settings last changed (`PUT`); absent until then. */
  updatedAt?: string;
  /**
   * Set by `project.delete` in the project's last record: the project is gone, its keys are being removed
   * (and are removed at the next start if the process stopped first). A deleted project decides nothing.
   */
  deleted?: boolean;
  /**
   * Tag types and context fields an import committed here still has to create in the service (absent: none).
   * Set in the import's record, cleared once they exist; a start finishes what a crash interrupted
   * (docs/architecture.md "Export and import").
   */
  pendingImport?: PendingDefinitions;
  /**
   * Environments whose changes go through change requests, with the approvals each needs (an environment
   * listed: on; absent: off, as Unleash's settings rows). Absent in older records: none.
   */
  changeRequestSettings?: Record<string, ChangeRequestSetting>;
}

/** Service-wide definitions an import brings: created when missing, never changed when present. */
export interface PendingDefinitions {
  tagTypes: TagType[];
  contextFields: ContextField[];
}

/** Unleash's project modes (`open`, `protected`, `private`). */
export type ProjectMode = 'open' | 'protected' | 'private';
