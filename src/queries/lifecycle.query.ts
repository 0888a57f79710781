/** Reads of the flags' lifecycle stages (docs/api-decisions.md "Feature lifecycle") from the committed states. */
import type { Registry } from '../actors/registry.js';
import { currentStage, stagesOf, type StageEntry } from '../domain/flag-stages.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Flag } from '../domain/types.js';
import { ok, type Result } from '../domain/result.js';
import type { LifecycleCountView } from '../schemas/lifecycle.schema.js';
import { flagById } from './flags.query.js';
import { perStateVersion } from './state-memo.js';

/** The stages a flag of the project (archived ones too) entered, in order; 404 when unknown. */
export function flagLifecycle(state: ProjectState, name: string): Result<StageEntry[]> {
  const found = flagById(state, name);
  return found.ok ? ok(stagesOf(found.value)) : found;
}

/** A flag of the project (archived ones too) with its current stage, as the flag's GET shows it; 404 when unknown. */
export function flagWithStage(state: ProjectState, name: string): Result<{ flag: Flag; lifecycle: StageEntry }> {
  const found = flagById(state, name);
  return found.ok ? ok({ flag: found.value, lifecycle: currentStage(found.value) }, found.version) : found;
}

const KEY = { initial: 'initial', 'pre-live': 'preLive', live: 'live', completed: 'completed', archived: 'archived' } as const;

/** One project's count per current stage, once per state version (a scan of every flag). */
const projectCount = perStateVersion((state): LifecycleCountView => {
  const count: LifecycleCountView = { initial: 0, preLive: 0, live: 0, completed: 0, archived: 0 };
  for (const flag of state.flags.values()) count[KEY[currentStage(flag).stage]] += 1;
  return count;
});

/**
 * How many flags of every project (archived ones too) are in each stage now (Unleash's `GET /api/admin/lifecycle/count`).
 *
 * @example lifecycleCount(registry) // { initial: 3, preLive: 1, live: 0, completed: 0, archived: 2 }
 */
export function lifecycleCount(registry: Registry): Result<LifecycleCountView> {
  const total: LifecycleCountView = { initial: 0, preLive: 0, live: 0, completed: 0, archived: 0 };
  for (const id of registry.projectIds()) {
    const state = registry.project(id)?.state;
    if (!state) continue;
    const count = projectCount(state);
    for (const key of Object.keys(total) as (keyof LifecycleCountView)[]) total[key] += count[key];
  }
  return ok(total);
}
