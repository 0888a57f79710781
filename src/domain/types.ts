/**
 * Plain data shapes of a project's state. Every record here is immutable once
 * published: a change builds a new object, so a snapshot of the committed
 * state can be serialized later without copying, and reads never see a
 * half-applied command.
 */

export type FlagType = 'release' | 'experiment' | 'operational' | 'kill-switch' | 'permission';

export type ConstraintOperator =
  | 'NOT_IN' | 'IN'
  | 'STR_ENDS_WITH' | 'STR_STARTS_WITH' | 'STR_CONTAINS'
  | 'NUM_EQ' | 'NUM_GT' | 'NUM_GTE' | 'NUM_LT' | 'NUM_LTE'
  | 'DATE_AFTER' | 'DATE_BEFORE'
  | 'SEMVER_EQ' | 'SEMVER_GT' | 'SEMVER_LT';

export interface Constraint {
  contextName: string;
  operator: ConstraintOperator;
  caseInsensitive: boolean;
  inverted: boolean;
  values?: string[];
  value?: string;
}

export interface Payload {
  type: 'json' | 'csv' | 'string' | 'number';
  value: string;
}

export interface StrategyVariant {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: Payload;
}

/** A strategy as stored and returned (API-DECISIONS "Strategies"). */
export interface Strategy {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  constraints: Constraint[];
  parameters: Record<string, string>;
  variants: StrategyVariant[];
  segments: number[];
}

/** A strategy before it gets an id and a place: the body of add, put and default-strategy. */
export interface StrategyInput {
  name: string;
  title?: string | null | undefined;
  disabled?: boolean | null | undefined;
  sortOrder?: number | undefined;
  constraints?: Constraint[] | undefined;
  parameters?: Record<string, string> | undefined;
  variants?: StrategyVariant[] | undefined;
  segments?: number[] | undefined;
}

export interface Override {
  contextName: string;
  values: string[];
}

export interface Variant {
  name: string;
  weightType: 'variable' | 'fix';
  weight: number;
  stickiness: string;
  payload?: Payload;
  overrides: Override[];
}

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
}

/** Project-wide data that is not a flag. */
export interface ProjectMeta {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  /** Environment names connected to the project. */
  environments: string[];
  /** Default strategy per environment name (seed 4.16). */
  defaultStrategies: Record<string, StrategyInput>;
  /** userId (as string key) -> project role id. */
  members: Record<string, number>;
}
