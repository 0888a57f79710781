/**
 * A change of a request said as the history says the write it stands for: its heading and the diff of what it
 * changes, from its snapshot (the value when it was added) to what it proposes, made by the history's own
 * `changesOf`, so a change reads the same here and, once applied, in the history.
 */
import type { Change } from '../../../domain/change-request.js';
import type { Constraint, Dependency, Strategy, StrategyOrder, Variant } from '../../../domain/types.js';
import { changesOf } from '../../../queries/history/event-diff.js';
import { added, lists, moved, pathOf, removed, scalar, words, type FieldChange } from '../../../queries/history/change-words.js';
import { dependencyWords } from '../../../queries/history/flag-diff.js';
import { constraintChanges, strategyLabel, strategyWords } from '../../../queries/history/strategy-diff.js';

/** What each kind of change does, as its heading. */
export function changeTitle(change: Change): string {
  switch (change.action) {
    case 'updateEnabled': return change.payload.enabled ? 'Switch on' : 'Switch off';
    case 'addStrategy': return `Add strategy ${strategyLabel(change.payload)}`;
    case 'updateStrategy': return `Change strategy ${strategyLabel({ name: change.payload.name ?? (change.snapshot as Strategy | undefined)?.name ?? '', title: change.payload.title })}`;
    case 'deleteStrategy': return `Delete strategy ${(change.snapshot as Strategy | undefined) ? strategyLabel(change.snapshot as Strategy) : change.payload.id}`;
    case 'reorderStrategy': return 'Reorder strategies';
    case 'patchVariant': return 'Set variants';
    case 'archiveFeature': return 'Archive the flag';
    case 'addDependency': return `Depend on ${change.payload.feature}`;
    case 'deleteDependency': return change.payload?.feature ? `Remove the dependency on ${change.payload.feature}` : 'Remove every dependency';
    case 'updateSegment': return `Change segment ${change.payload.name}`;
    case 'deleteSegment': return `Delete segment ${(change.snapshot as { name?: string } | undefined)?.name ?? change.payload.id}`;
  }
}

type Segmentish = { name?: string; description?: string | null; constraints?: Constraint[] } | null | undefined;

/** What moved in a segment, between two of its versions. */
function segmentDiff(before: Segmentish, after: Segmentish): FieldChange[] {
  if (!after) return before ? [removed('segment', before.name ?? '')] : [];
  const out: FieldChange[] = [];
  scalar('name', before?.name, after.name, out);
  scalar('description', before?.description ?? null, after.description ?? null, out);
  constraintChanges('constraints', before?.constraints ?? [], after.constraints ?? [], out);
  return out;
}

/**
 * What moved between two values of what `change` changes (its snapshot, the value now, the value proposed),
 * said by the history's diff of the write it stands for.
 *
 * @example valuesDiff(change, 'production', conflict.whenAdded, conflict.now) // [{ path: 'production › Half › rollout', before: '50', after: '20', ... }]
 */
export function valuesDiff(change: Change, environment: string, before: unknown, after: unknown): FieldChange[] {
  const at = { environment, feature: change.feature ?? null };
  switch (change.action) {
    case 'updateEnabled': {
      const [was, is] = [(before as { enabled?: boolean } | undefined)?.enabled, (after as { enabled?: boolean } | undefined)?.enabled];
      return was === is ? [] : [moved(environment, was === undefined ? null : words(was), is === undefined ? null : words(is))];
    }
    case 'addStrategy':
    case 'updateStrategy':
    case 'deleteStrategy': {
      if (!before) return after ? [added(pathOf(environment, 'strategy'), strategyWords(after as Strategy))] : [];
      if (!after) return [removed(pathOf(environment, 'strategy'), strategyWords(before as Strategy))];
      return changesOf({ ...at, type: 'strategy.updated', before, after });
    }
    case 'reorderStrategy': return changesOf({ ...at, type: 'strategies.sorted', before: (before ?? []) as StrategyOrder[], after: (after ?? []) as StrategyOrder[] });
    case 'patchVariant': return changesOf({ ...at, type: 'variants.updated', before: (before ?? []) as Variant[], after: (after ?? []) as Variant[] });
    case 'archiveFeature': return (before as { archived?: boolean } | undefined)?.archived ? [] : [moved('archived', 'no', 'yes')];
    case 'addDependency': {
      if (!after) return before ? [removed('dependency', dependencyWords(before as Dependency))] : [];
      return changesOf({ ...at, type: 'dependency.added', before: (before ?? null) as Dependency | null, after });
    }
    case 'deleteDependency': {
      const out: FieldChange[] = [];
      lists('dependencies', ((before ?? []) as Dependency[]).map(dependencyWords), ((after ?? []) as Dependency[]).map(dependencyWords), out);
      return out;
    }
    case 'updateSegment':
    case 'deleteSegment':
      return segmentDiff(before as Segmentish, after as Segmentish);
  }
}

/** What `change` proposes, as the value it changes (beside its snapshot, the value when it was added). */
function proposedOf(change: Change): unknown {
  switch (change.action) {
    case 'updateEnabled': return { enabled: change.payload.enabled };
    case 'addStrategy': return change.payload;
    case 'updateStrategy': {
      const before = (change.snapshot ?? {}) as Strategy;
      return { ...before, ...change.payload, name: change.payload.name ?? before.name };
    }
    case 'deleteStrategy': return null;
    case 'reorderStrategy': return change.payload;
    case 'patchVariant': return change.payload.variants;
    case 'archiveFeature': return { archived: true };
    case 'addDependency': return change.payload;
    case 'deleteDependency': return [];
    case 'updateSegment': return change.payload;
    case 'deleteSegment': return null;
  }
}

/**
 * The diff of one change: what it changes, from its snapshot to what it proposes.
 *
 * @example changeDiff({ action: 'updateEnabled', payload: { enabled: true }, snapshot: { enabled: false }, ... }, 'production')
 * // [{ path: 'production', before: 'off', after: 'on', ... }]
 */
export function changeDiff(change: Change, environment: string): FieldChange[] {
  const out = valuesDiff(change, environment, change.snapshot, proposedOf(change));
  if (change.action === 'updateEnabled' && change.payload.shouldActivateDisabledStrategies) out.push(added(pathOf(environment, 'strategies'), 'its disabled strategies enabled'));
  return out;
}

/** A conflict's value in words (`(none)` when there is none). */
export const valueWords = (value: unknown): string => words(value);
