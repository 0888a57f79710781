/**
 * A change of a request said as the history says the write it stands for: its heading and the diff of what it
 * changes, from its snapshot (the value when it was added) to what it proposes, made by the history's own
 * `changesOf`, so a change reads the same here and, once applied, in the history.
 */
import type { Change } from '../../../domain/change-request.js';
import type { Dependency, Strategy, StrategyOrder, Variant } from '../../../domain/types.js';
import { changesOf, type ChangeSides } from '../../../queries/history/event-diff.js';
import { added, moved, pathOf, removed, scalar, words, type FieldChange } from '../../../queries/history/change-words.js';
import { constraintChanges, strategyLabel } from '../../../queries/history/strategy-diff.js';

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

/** The history entry the change would make, as its sides (`event-diff.ts`), for the changes the history words. */
function sidesOf(change: Change, environment: string): ChangeSides | null {
  const at = { environment, feature: change.feature ?? null };
  const snapshot = change.snapshot;
  switch (change.action) {
    case 'addStrategy': return { ...at, type: 'strategy.added', before: null, after: change.payload };
    case 'updateStrategy': {
      const before = (snapshot ?? {}) as Strategy;
      return { ...at, type: 'strategy.updated', before, after: { ...before, ...change.payload, name: change.payload.name ?? before.name } };
    }
    case 'deleteStrategy': return snapshot === undefined ? null : { ...at, type: 'strategy.deleted', before: snapshot, after: null };
    case 'reorderStrategy': return { ...at, type: 'strategies.sorted', before: (snapshot ?? []) as StrategyOrder[], after: change.payload };
    case 'patchVariant': return { ...at, type: 'variants.updated', before: (snapshot ?? []) as Variant[], after: change.payload.variants };
    case 'archiveFeature': return { ...at, type: 'flag.archived', before: null, after: null };
    case 'addDependency': return { ...at, type: 'dependency.added', before: (snapshot ?? null) as Dependency | null, after: change.payload };
    case 'deleteDependency': return { ...at, type: 'dependencies.removed', before: (snapshot ?? []) as Dependency[], after: [] };
    default: return null;
  }
}

/**
 * The diff of one change: what it changes, from its snapshot to what it proposes.
 *
 * @example changeDiff({ action: 'updateEnabled', payload: { enabled: true }, snapshot: { enabled: false }, ... }, 'production')
 * // [{ path: 'production', before: 'off', after: 'on', ... }]
 */
export function changeDiff(change: Change, environment: string): FieldChange[] {
  if (change.action === 'updateEnabled') {
    const was = (change.snapshot as { enabled?: boolean } | undefined)?.enabled;
    const out = [moved(environment, was === undefined ? null : words(was), words(change.payload.enabled))];
    if (change.payload.shouldActivateDisabledStrategies) out.push(added(pathOf(environment, 'strategies'), 'its disabled strategies enabled'));
    return out;
  }
  if (change.action === 'updateSegment') {
    const before = (change.snapshot ?? {}) as { name?: string; description?: string | null; constraints?: [] };
    const out: FieldChange[] = [];
    scalar('name', before.name, change.payload.name, out);
    scalar('description', before.description ?? null, change.payload.description ?? null, out);
    constraintChanges('constraints', before.constraints ?? [], change.payload.constraints ?? [], out);
    return out;
  }
  if (change.action === 'deleteSegment') return [removed('segment', (change.snapshot as { name?: string } | undefined)?.name ?? String(change.payload.id))];
  const sides = sidesOf(change, environment);
  return sides ? changesOf(sides) : [];
}

/** A conflict's value in words (`(none)` when there is none). */
export const valueWords = (value: unknown): string => words(value);
