import { safeParseCapped } from '../../schemas/capped-parse.js';
import { VariantsSchema, distributeWeights } from '../../schemas/variant.schema.js';
import type { CommandContext } from '../context.js';
import type { Cmd } from '../commands.js';
import type { Versioned } from '../result.js';
import { refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { applyJsonPatch } from '../json-patch.js';
import type { ProjectDraft } from '../project-state.js';
import type { Flag, Variant } from '../types.js';
import { acceptFlagChange, acceptOnFlag, flagForChange, invalid } from './shared.js';

export type VariantsDecision = Decision<ProjectEvent, Versioned<Variant[]>>;

function store(draft: ProjectDraft, flag: Flag, variants: Variant[], context: CommandContext): VariantsDecision {
  const stored = distributeWeights(variants);
  return acceptFlagChange(draft, flag, { type: 'variants.updated', name: flag.name, version: context.seq, variants: stored, before: flag.variants }, stored, context);
}

/** PUT: replaces every variant (docs/admin-contract.md §4.14); the list was validated by the route's schema. */
export function decideSetVariants(draft: ProjectDraft, cmd: Cmd<'variants.set'>, context: CommandContext): VariantsDecision {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  return store(draft, found.value, cmd.variants, context);
}

/** PATCH: operations on the stored list; the result is validated like a PUT body and weights recomputed. */
export function decidePatchVariants(draft: ProjectDraft, cmd: Cmd<'variants.patch'>, context: CommandContext): VariantsDecision {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  // An empty patch changes nothing: no event, the flag keeps its version.
  if (cmd.operations.length === 0) return acceptOnFlag([], found.value.variants, found.value, context);
  const patched = applyJsonPatch(found.value.variants, cmd.operations);
  if (!patched.ok) return refuse(patched.error);
  const parsed = safeParseCapped(VariantsSchema, patched.value);
  if (!parsed.success) return refuse(invalid(parsed.issues, parsed.capped));
  return store(draft, found.value, parsed.output, context);
}
