/**
 * What an import in Unleash 6.10's format asks of one project (docs/api-decisions.md "Export and import"),
 * once the use case has read the body against the service: segments renamed to their ids here, the
 * definitions it brings split into those to create and those present. Decided in the project mailbox
 * (`decide/import.ts`).
 */
import type { ContextField } from './definitions.js';
import type { TagType } from './service-state.js';
import type { Dependency, FlagType, StrategyInput, Tag, Variant } from './types.js';

/** One flag as the import brings it, in the import's environment. */
export interface ImportedFlag {
  name: string;
  description: string;
  type: FlagType;
  stale: boolean;
  impressionData: boolean;
  /** Its strategies in the environment, in order; they replace the flag's strategies there. */
  strategies: StrategyInput[];
  /** On or off in the environment; undefined when the import lists no entry for it (kept when possible). */
  enabled: boolean | undefined;
  /** Its variants in the environment; null or empty: the flag's variants are kept (as Unleash). */
  variants: Variant[] | null;
  /** Its tags: they replace the flag's tags (as Unleash). */
  tags: Tag[];
  /** Its parents: added to (or replacing the ones on the same parent among) the flag's. */
  dependencies: Dependency[];
}

/** A message with the items it is about (Unleash's `importTogglesValidateItemSchema`). */
export interface ImportItem {
  message: string;
  affectedItems: string[];
}

export interface ImportPlan {
  environment: string;
  flags: ImportedFlag[];
  /** Context fields the import creates (absent here); a constraint on one uses its legal values. */
  newContextFields: ContextField[];
  /** Tag types the import creates (absent here). */
  newTagTypes: TagType[];
}

/** What the project decided: the changes, and the errors (nothing is imported while there is one) and warnings. */
export interface ImportReport {
  created: string[];
  updated: string[];
  /** Archived here: left alone (as Unleash). */
  skipped: string[];
  errors: ImportItem[];
  warnings: ImportItem[];
}
