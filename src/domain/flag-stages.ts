/**
 * A flag's lifecycle stages as Unleash 6.10 shows them (docs/api-decisions.md "Feature lifecycle"), read from
 * what the flag stores: `initial` when it was created or revived, `pre-live` and `live` when SDK reports moved it there,
 * `completed` while it is marked so, `archived` while it is archived. Which stage a report or a completion
 * enters is the flag-stage machine's to say (`flagRules`); this module only maps stored values to and from it.
 */
import { flagRules, type SeenStage, type StageValue } from '../../machines/flag-rules.js';
import { own } from './dict.js';
import type { Flag, FlagStages, LifecycleStage } from './types.js';

/** One stage a flag entered: Unleash's `{stage, status?, enteredStageAt}`. */
export interface StageEntry {
  stage: LifecycleStage;
  status?: 'kept' | 'discarded';
  enteredStageAt: string;
}

const NO_STAGES: FlagStages = Object.freeze({});

/** The flag's values in the flag-stage machine. */
export function stageValue(flag: Flag): StageValue {
  const stages = flag.stages ?? NO_STAGES;
  return { usage: stages.live !== undefined ? 'live' : stages.preLive !== undefined ? 'preLive' : 'initial', completed: stages.completed !== undefined };
}

/**
 * The stages an SDK report of the flag from `environment` enters (empty: none). An archived flag enters none:
 * the lifecycle machine refuses it every change, and no SDK is served it.
 *
 * @example entersStages(flag, 'production', true) // ['pre-live', 'live'] for a new flag on in production
 */
export function entersStages(flag: Flag, environment: string, production: boolean): readonly SeenStage[] {
  if (!flagRules.acceptsChange(flag.archived)) return [];
  return flagRules.seen(stageValue(flag), production, own(flag.environments, environment)?.enabled ?? false);
}

/** `stages` with each of `entered` recorded at `at`; a stage already entered keeps its first moment. */
export function withEntered(stages: FlagStages | undefined, entered: readonly SeenStage[], at: string): FlagStages {
  const next: FlagStages = { ...stages };
  for (const stage of entered) {
    if (stage === 'pre-live') next.preLive ??= at;
    else next.live ??= at;
  }
  return next;
}

/** Stage order for entries entered at the same moment (a report entering pre-live and live at once). */
const ORDER: Record<LifecycleStage, number> = { initial: 0, 'pre-live': 1, live: 2, completed: 3, archived: 4 };

/**
 * Every stage the flag is in or went through, in the order it entered them (Unleash's `GET .../lifecycle`).
 *
 * @example stagesOf(flag) // [{ stage: 'initial', enteredStageAt: '...' }, { stage: 'pre-live', enteredStageAt: '...' }]
 */
export function stagesOf(flag: Flag): StageEntry[] {
  const stages = flag.stages ?? NO_STAGES;
  const entries: StageEntry[] = [{ stage: 'initial', enteredStageAt: stages.initial ?? flag.createdAt }];
  if (stages.preLive !== undefined) entries.push({ stage: 'pre-live', enteredStageAt: stages.preLive });
  if (stages.live !== undefined) entries.push({ stage: 'live', enteredStageAt: stages.live });
  if (stages.completed !== undefined) entries.push({ stage: 'completed', status: stages.completed.status, enteredStageAt: stages.completed.at });
  if (flag.archived) entries.push({ stage: 'archived', enteredStageAt: flag.archivedAt ?? flag.createdAt });
  return entries.sort((a, b) => (a.enteredStageAt < b.enteredStageAt ? -1 : a.enteredStageAt > b.enteredStageAt ? 1 : ORDER[a.stage] - ORDER[b.stage]));
}

/**
 * The stage the flag is in now: archived over completed over live over pre-live over initial (Unleash's
 * `getCurrentStage`), whatever the order it entered them.
 */
export function currentStage(flag: Flag): StageEntry {
  const stages = flag.stages ?? NO_STAGES;
  if (flag.archived) return { stage: 'archived', enteredStageAt: flag.archivedAt ?? flag.createdAt };
  if (stages.completed !== undefined) return { stage: 'completed', status: stages.completed.status, enteredStageAt: stages.completed.at };
  if (stages.live !== undefined) return { stage: 'live', enteredStageAt: stages.live };
  if (stages.preLive !== undefined) return { stage: 'pre-live', enteredStageAt: stages.preLive };
  return { stage: 'initial', enteredStageAt: stages.initial ?? flag.createdAt };
}
