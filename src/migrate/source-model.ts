/**
 * What `flagpole migrate` read from an Unleash, already in flagpole's body shapes: the reader
 * (`unleash-reader.ts`) builds it, the planner (`plan.ts`) compares it with the target's dump. Segments are
 * named, not numbered, because ids differ between the two installations.
 */
import type { UnleashConstraint, UnleashStrategy, UnleashVariant } from './unleash-schemas.js';

export interface Constraint {
  contextName: string;
  operator: string;
  caseInsensitive: boolean;
  inverted: boolean;
  values?: string[];
  value?: string;
}

export interface Variant {
  name: string;
  weightType: 'variable' | 'fix';
  weight: number;
  stickiness: string;
  payload?: { type: string; value: string };
  overrides: { contextName: string; values: string[] }[];
}

/** A strategy as flagpole's add body, with `segments` by name (resolved to the target's ids when written). */
export interface Strategy {
  name: string;
  title: string | null;
  disabled: boolean;
  constraints: Constraint[];
  parameters: Record<string, string>;
  variants: Variant[];
  segments: string[];
}

export interface SourceFlag {
  project: string;
  name: string;
  description: string;
  type: string;
  stale: boolean;
  impressionData: boolean;
  archived: boolean;
  /** flagpole holds one list for every environment (a note says when Unleash's differed). */
  variants: Variant[];
  /** What could not be carried as it was, for the report. */
  notes: string[];
  /** The project's environments only; strategies in Unleash's sort order. */
  environments: Record<string, { enabled: boolean; strategies: Strategy[] }>;
  tags: { type: string; value: string }[];
  dependencies: { feature: string; enabled: boolean; variants?: string[] }[];
}

export interface SourceProject {
  id: string;
  name: string;
  description: string;
  /** Carried when the target accepts them (docs/migration.md "Projects"). */
  mode: string | null;
  defaultStickiness: string | null;
  environments: string[];
  defaultStrategies: Record<string, Strategy>;
}

export interface SourceData {
  /** `versionInfo.current.oss` (or `version`) of `/api/admin/ui-config`. */
  version: string;
  major: number;
  environments: { name: string; type: string; sortOrder: number; enabled: boolean }[];
  projects: SourceProject[];
  flags: SourceFlag[];
  segments: { name: string; description: string | null; project: string | null; constraints: Constraint[] }[];
  tagTypes: { name: string; description: string; icon: string | null; color: string | null }[];
  contextFields: { name: string; description: string; stickiness: boolean; sortOrder?: number; legalValues: { value: string; description: string | null }[] }[];
  strategyDefinitions: { name: string; title: string | null; description: string; parameters: { name: string; type: string; description: string; required: boolean }[] }[];
  /** `rootRole` by name (Admin, Editor, Viewer, or a custom role's name). */
  users: { id: number; name: string | null; email: string | null; username: string | null; rootRole: string }[];
  /** Project roles by role name; null when this Unleash has no project access API (open source). */
  members: { project: string; userId: number; role: string }[] | null;
  /** API tokens as listed, without any part of their secret. */
  tokens: { tokenName: string; type: string; projects: string[]; environment: string }[];
  /** Addons as listed, their secrets masked (`*****`) until `--addon-secrets` fills them in (`withAddonSecrets`). */
  addons: SourceAddon[];
}

/** An addon of the Unleash (its id there names it in `--addon-secrets`). */
export interface SourceAddon {
  id: number;
  provider: string;
  description: string;
  enabled: boolean;
  parameters: Record<string, string | number | boolean>;
  events: string[];
  projects: string[];
  environments: string[];
}

const MULTI_VALUE = new Set(['IN', 'NOT_IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS']);

/** A constraint as flagpole takes it: `values` for the list operators, `value` for the others. */
export function constraint(c: UnleashConstraint): Constraint {
  const base = { contextName: c.contextName, operator: c.operator, caseInsensitive: c.caseInsensitive ?? false, inverted: c.inverted ?? false };
  if (MULTI_VALUE.has(c.operator)) return { ...base, values: c.values ?? [] };
  return c.value === undefined || c.value === null ? base : { ...base, value: String(c.value) };
}

export function variant(x: UnleashVariant): Variant {
  const out: Variant = {
    name: x.name, weightType: x.weightType === 'fix' ? 'fix' : 'variable', weight: x.weight ?? 0, stickiness: x.stickiness || 'default',
    overrides: (x.overrides ?? []).map((o) => ({ contextName: o.contextName, values: o.values })),
  };
  if (x.payload) out.payload = { type: x.payload.type, value: x.payload.value };
  return out;
}

/** A strategy with its segment ids turned into names (`segmentNames`: the Unleash's id → name). */
export function strategy(s: UnleashStrategy, segmentNames: Map<number, string>): Strategy {
  return {
    name: s.name, title: s.title ?? null, disabled: s.disabled ?? false,
    constraints: (s.constraints ?? []).map(constraint),
    parameters: Object.fromEntries(Object.entries(s.parameters ?? {}).map(([k, value]) => [k, String(value)])),
    variants: (s.variants ?? []).map(variant),
    segments: (s.segments ?? []).map((id) => segmentNames.get(id) ?? `#${id}`),
  };
}
