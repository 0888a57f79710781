/** A project as it was at an earlier moment, and the comparison of two moments. */
import type { Registry } from '../../actors/registry.js';
import type { Moment } from '../../actors/past/project-past.js';
import { ok, type Result } from '../../domain/result.js';
import type { Flag, ProjectMeta } from '../../domain/types.js';
import type { FieldChange } from './change-words.js';
import { flagChanges, metaChanges } from './flag-diff.js';
import { isoMoment } from './moment.js';

export { isMomentError, type MomentError } from '../../actors/past/project-past.js';

/** Which moment a past view shows: the one asked for, and the last record committed at or before it. */
export interface MomentMark {
  asked: string;
  seq: number;
  at: string;
}

/** A project as it was: its settings and every flag (archived ones too), in creation order. */
export interface PastProject extends MomentMark {
  meta: ProjectMeta;
  flags: Flag[];
}

/** One flag whose configuration differs between two moments. */
export interface FlagComparison {
  name: string;
  /** `changed` unless the flag was created, deleted, archived or revived in between. */
  status: 'created' | 'deleted' | 'archived' | 'revived' | 'changed';
  before: Flag | null;
  after: Flag | null;
  changes: FieldChange[];
}

/** What differs between two moments: the project's settings and each flag that differs, by name. */
export interface MomentComparison {
  from: MomentMark;
  to: MomentMark;
  settings: FieldChange[];
  flags: FlagComparison[];
}

const mark = (m: Moment): MomentMark => ({ asked: m.asked, seq: m.seq, at: m.at });

async function momentOf(registry: Registry, projectId: string, time: string, name: string): Promise<Result<Moment>> {
  const iso = isoMoment(time, name);
  if (!iso.ok) return iso;
  const past = registry.past(projectId);
  return past.ok ? past.value.at(iso.value) : past;
}

/**
 * The project as of the last command committed at or before `time` (ISO 8601), from snapshots plus the
 * log. A moment before the project existed, or one whose log LOG_RETENTION dropped, is a
 * {@link MomentError} (404) that says which moments can be shown; a date that is not one, a 400.
 *
 * @example const past = await projectAt(registry, 'default', '2026-03-01T09:30:00Z'); // past.value.flags
 */
export async function projectAt(registry: Registry, projectId: string, time: string): Promise<Result<PastProject>> {
  const moment = await momentOf(registry, projectId, time, 't');
  if (!moment.ok) return moment;
  const { state } = moment.value;
  return ok(Object.assign(mark(moment.value), { meta: state.meta, flags: Array.from(state.flags.values()) }));
}

/**
 * Starts building, in the background, what past views of the project need (checkpoints of its log), so
 * the first past view or comparison opened from a page answers quickly; for the project and history pages.
 * An unknown project does nothing.
 *
 * @example preparePastViews(registry, 'default')
 */
export function preparePastViews(registry: Registry, projectId: string): void {
  const past = registry.past(projectId);
  if (past.ok) void past.value.warm();
}

/** How a flag went from `before` to `after`, in one word. */
function statusOf(before: Flag | null, after: Flag | null): FlagComparison['status'] {
  if (!before) return 'created';
  if (!after) return 'deleted';
  if (before.archived !== after.archived) return after.archived ? 'archived' : 'revived';
  return 'changed';
}

/**
 * Every flag whose configuration differs between the moments `from` and `to` (ISO 8601), with what moved
 * (flags created, deleted, archived or revived in between included; a flag changed and changed back is
 * not listed), sorted by name; and what moved in the project's settings. Errors as {@link projectAt}.
 *
 * @example await compareMoments(registry, 'default', '2026-03-01T09:00:00Z', '2026-03-01T10:00:00Z')
 */
export async function compareMoments(registry: Registry, projectId: string, from: string, to: string): Promise<Result<MomentComparison>> {
  const a = await momentOf(registry, projectId, from, 'from');
  if (!a.ok) return a;
  const b = await momentOf(registry, projectId, to, 'to');
  if (!b.ok) return b;
  const before = a.value.state.flags;
  const after = b.value.state.flags;
  const flags: FlagComparison[] = [];
  const names = new Set([...before.keys(), ...after.keys()]);
  for (const name of names) {
    const was = before.get(name) ?? null;
    const now = after.get(name) ?? null;
    // Flags are immutable records: one both states share did not change in between.
    if (was === now) continue;
    const changes = flagChanges(was, now);
    if (changes.length > 0) flags.push({ name, status: statusOf(was, now), before: was, after: now, changes });
  }
  flags.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return ok({ from: mark(a.value), to: mark(b.value), settings: metaChanges(a.value.state.meta, b.value.state.meta), flags });
}
