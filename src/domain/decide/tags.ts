/**
 * Tags on flags (docs/api-decisions.md "Tags"). The tag types named were checked to exist by the caller, in
 * the registry's tag mailbox (`src/use-cases/tags.use-cases.ts`), which also serializes tag-type deletes.
 */
import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import type { Cmd } from '../commands.js';
import type { CommandContext } from '../context.js';
import { accept, fail, refuse } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { applyFlagEvent, sameTag } from '../flag-events.js';
import type { ProjectDraft } from '../project-state.js';
import type { Flag, Tag } from '../types.js';
import type { FlagDecision } from './shared.js';
import { checkFlagSize, flagForChange } from './shared.js';

/**
 * Adds `added` and removes `removed` on every flag of `features`: one `flag.tagged` event per flag that
 * changes; a tag it already has, or a removed tag it lacks, changes nothing (as Unleash). Any unknown or
 * archived flag, or a flag past `tagsPerFlag`, refuses the whole command.
 */
export function decideChangeTags(draft: ProjectDraft, cmd: Cmd<'tags.change'>, context: CommandContext): FlagDecision<'tags.change'> {
  const events: ProjectEvent[] = [];
  const after: Tag[][] = [];
  for (const name of cmd.features) {
    const found = flagForChange(draft, name, undefined);
    if (!found.ok) return refuse(found.error);
    // A name listed twice is decided against the first change.
    const flag: Flag = events.reduce((f, e) => (e.type === 'flag.tagged' && e.name === name ? applyFlagEvent(f, e)! : f), found.value);
    const tags = flag.tags ?? [];
    const removed = dedupe(cmd.removed).filter((r) => tags.some((t) => sameTag(t, r)));
    const added = dedupe(cmd.added).filter((a) => !tags.some((t) => sameTag(t, a)) || removed.some((r) => sameTag(r, a)));
    if (added.length === 0 && removed.length === 0) {
      after.push(tags);
      continue;
    }
    const event: ProjectEvent = { type: 'flag.tagged', name, version: context.seq, added, removed };
    const next = applyFlagEvent(flag, event)!;
    const count = next.tags?.length ?? 0;
    if (count > context.limits.tagsPerFlag) {
      return refuse(fail('ExceedsLimitError', overLimit(`The number of tags of flag "${name}" (${count} after this change)`, context.limits.tagsPerFlag, LIMIT_VARIABLES.tagsPerFlag)));
    }
    const tooLarge = checkFlagSize(next, context);
    if (tooLarge) return refuse(tooLarge);
    events.push(event);
    after.push(next.tags ?? []);
  }
  return accept(events, after);
}

const dedupe = (tags: readonly Tag[]): Tag[] => tags.filter((t, i) => tags.findIndex((o) => sameTag(o, t)) === i);

/**
 * Removes every tag of type `tagType` from each flag carrying one, archived flags included (Unleash deletes a
 * tag type's tags with it): one `flag.tagged` event per such flag, so the history shows each removal. Sent by
 * the tag-type delete, in the tag mailbox, before the service deletes the type.
 */
export function decideDropTagType(draft: ProjectDraft, cmd: Cmd<'tags.drop-type'>, context: CommandContext): FlagDecision<'tags.drop-type'> {
  const names = draft.flagsWhere((flag) => (flag.tags ?? []).some((t) => t.type === cmd.tagType));
  const events: ProjectEvent[] = names.map((name) => ({
    type: 'flag.tagged', name, version: context.seq, added: [], removed: (draft.getFlag(name)!.tags ?? []).filter((t) => t.type === cmd.tagType),
  }));
  return accept(events, names);
}
