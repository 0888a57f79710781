import type { FlagMetadata, ProjectEvent } from '../../domain/events.js';
import type { Dependency, Flag, FlagCompletion, ProjectMeta, Strategy, StrategyOrder, Tag, Variant } from '../../domain/types.js';
import { added, lists, moved, pathOf, removed, type FieldChange } from './change-words.js';
import { requestChanges } from './change-request-diff.js';
import { dependencyWords, flagChanges, metaChanges, metadataChanges, tagWords } from './flag-diff.js';
import { strategyChanges, strategyWords, variantChanges } from './strategy-diff.js';

/** What a history entry holds that its diff is made from (`HistoryEntry` of `src/actors/past/history.ts`). */
export interface ChangeSides {
  type: ProjectEvent['type'];
  feature?: string | null;
  environment: string | null;
  before: unknown;
  after: unknown;
  /** On change-request entries: the request, and on the entry of an apply, the sides of every change it made. */
  changeRequest?: { id: number; changes?: ChangeSides[] } | undefined;
}

/**
 * The fields one history entry moved, in words (`development: off → on`, `... › rollout: 10 → 50`,
 * `... › values: +[a, b] −[c]`), from the entry's event type and its before and after sides: one
 * function for the timeline and the project history, so both say a change the same way.
 *
 * @example changesOf({ type: 'flag.enabled', environment: 'development', before: { enabled: false }, after: { enabled: true } })
 * // [{ path: 'development', before: 'off', after: 'on', text: 'development: off → on' }]
 */
export function changesOf(entry: ChangeSides): FieldChange[] {
  const out: FieldChange[] = [];
  const env = entry.environment;
  switch (entry.type) {
    case 'project.created':
      return metaChanges(null, entry.after as ProjectMeta);
    case 'project.updated':
    case 'environment.disconnected':
      return metaChanges(entry.before as ProjectMeta, entry.after as ProjectMeta);
    case 'flag.created':
    case 'flag.imported':
      return flagChanges(entry.before as Flag | null, entry.after as Flag);
    case 'flag.deleted':
      return flagChanges(entry.before as Flag, null);
    case 'flag.updated':
      metadataChanges(entry.before as FlagMetadata, entry.after as FlagMetadata, out);
      return out;
    case 'flag.archived':
      return [moved('archived', 'no', 'yes')];
    case 'flag.revived':
      return [moved('archived', 'yes', 'no')];
    case 'strategy.added':
      return [added(pathOf(env, 'strategy'), strategyWords(entry.after as Strategy))];
    case 'strategy.deleted':
      return [removed(pathOf(env, 'strategy'), strategyWords(entry.before as Strategy))];
    case 'strategy.updated':
      strategyChanges(env, entry.before as Strategy, entry.after as Strategy, out);
      return out;
    case 'strategies.sorted': {
      const was = new Map((entry.before as StrategyOrder[]).map((o) => [o.id, o.sortOrder]));
      for (const o of entry.after as StrategyOrder[]) out.push(moved(pathOf(env, `strategy ${o.id}`, 'sort order'), String(was.get(o.id) ?? '(none)'), String(o.sortOrder)));
      return out;
    }
    case 'flag.enabled': {
      const after = entry.after as { addedStrategy?: Strategy; activatedStrategies?: string[] };
      out.push(moved(env ?? 'environment', 'off', 'on'));
      if (after.addedStrategy) out.push(added(pathOf(env, 'strategy'), strategyWords(after.addedStrategy)));
      for (const id of after.activatedStrategies ?? []) out.push(moved(pathOf(env, `strategy ${id}`, 'status'), 'disabled', 'active'));
      return out;
    }
    case 'flag.disabled':
      return [moved(env ?? 'environment', 'on', 'off')];
    case 'variants.updated':
      variantChanges('variants', entry.before as Variant[], entry.after as Variant[], out);
      return out;
    case 'flag.tagged': {
      const { removedTags } = entry.before as { removedTags: Tag[] };
      const { addedTags } = entry.after as { addedTags: Tag[] };
      lists('tags', removedTags.map(tagWords), addedTags.map(tagWords), out);
      return out;
    }
    case 'dependency.added': {
      const before = entry.before as Dependency | null;
      const after = entry.after as Dependency;
      return [before ? moved(pathOf('dependency', after.feature), dependencyWords(before), dependencyWords(after)) : added('dependency', dependencyWords(after))];
    }
    case 'dependencies.removed':
      return (entry.before as Dependency[]).map((d) => removed('dependency', dependencyWords(d)));
    case 'flag.stages-entered':
      return (entry.after as { stages: string[] }).stages.map((stage) => added(pathOf(env, 'lifecycle stage'), stage));
    case 'flag.completed':
      return [moved('lifecycle', entry.before ? completionWords(entry.before as FlagCompletion) : 'not completed', completionWords(entry.after as FlagCompletion))];
    case 'flag.uncompleted':
      return [moved('lifecycle', completionWords(entry.before as FlagCompletion), 'not completed')];
    default:
      return requestChanges(entry, changesOf);
  }
}

/** A completion in words: `completed (kept: blue)`, `completed (discarded)`. */
const completionWords = (c: FlagCompletion): string => `completed (${c.status}${c.statusValue !== undefined ? `: ${c.statusValue}` : ''})`;
