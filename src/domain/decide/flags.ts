import { randomUUID } from 'node:crypto';
import { safeParseCapped } from '../../schemas/capped-parse.js';
import { flagRules } from '../../../machines/flag-rules.js';
import { FeatureRecordSchema } from '../../schemas/feature.schema.js';
import type { CommandContext } from '../context.js';
import type { Cmd } from '../commands.js';
import { accept, fail, refuse } from '../errors.js';
import type { FlagEvent, FlagMetadata, ProjectEvent } from '../events.js';
import { applyFlagEvent } from '../flag-events.js';
import { dict, own, withKey } from '../dict.js';
import { applyJsonPatch, topSegment } from '../json-patch.js';
import type { ProjectDraft } from '../project-state.js';
import type { Flag, FlagEnvironment } from '../types.js';
import { childrenOf } from './dependencies.js';
import { acceptOnFlag, checkFlagCount, checkFlagSize, flagForChange, invalid, type FlagDecision } from './shared.js';

export type { FlagDecision } from './shared.js';

const nameTaken = (draft: ProjectDraft, name: string) =>
  fail('NameExistsError', `A flag named "${name}" already exists in project "${draft.meta.id}" (archived flags included)`);

const emptyEnvironments = (draft: ProjectDraft): Record<string, FlagEnvironment> =>
  dict(draft.meta.environments.map((env): [string, FlagEnvironment] => [env, { ...flagRules.newEnvironment(), strategies: [] }]));

export function decideCreate(draft: ProjectDraft, cmd: Cmd<'flag.create'>, context: CommandContext): FlagDecision<'flag.create'> {
  if (draft.getFlag(cmd.name)) return refuse(nameTaken(draft, cmd.name));
  const tooMany = checkFlagCount(draft, context);
  if (tooMany) return refuse(tooMany);
  const flag: Flag = {
    name: cmd.name,
    description: cmd.description,
    type: cmd.flagType,
    stale: false,
    impressionData: cmd.impressionData,
    createdAt: context.at,
    lastSeenAt: null,
    ...flagRules.newFlag(),
    archivedAt: null,
    variants: [],
    version: context.seq,
    environments: emptyEnvironments(draft),
    createdBy: context.by,
  };
  const event: FlagEvent = { type: 'flag.created', flag };
  // Its maps are dicts already: the draft takes this flag rather than copying it again.
  draft.noteBuilt(event, flag);
  return accept([event], { value: flag, version: flag.version });
}

export function decideUpdate(draft: ProjectDraft, cmd: Cmd<'flag.update'>, context: CommandContext): FlagDecision<'flag.update'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  return updated(draft, found.value, { description: cmd.description, type: cmd.flagType, stale: cmd.stale, impressionData: cmd.impressionData }, context);
}

const metadataOf = (flag: Flag): FlagMetadata =>
  ({ description: flag.description, type: flag.type, stale: flag.stale, impressionData: flag.impressionData });

function updated(draft: ProjectDraft, before: Flag, after: FlagMetadata, context: CommandContext): FlagDecision<'flag.update'> {
  const event: FlagEvent = { type: 'flag.updated', name: before.name, version: context.seq, before: metadataOf(before), after };
  const flag = applyFlagEvent(before, event)!;
  draft.noteBuilt(event, flag);
  return accept([event], { value: flag, version: flag.version });
}

/** Fields a flag patch may not touch, and where to go instead. */
const FROZEN: Record<string, string> = {
  name: 'the name of a flag cannot be changed',
  project: 'a flag cannot be moved by a patch',
  createdAt: 'createdAt cannot be changed',
  lastSeenAt: 'lastSeenAt cannot be changed',
  variants: 'variants are changed through PUT or PATCH /api/admin/projects/:projectId/features/:featureName/variants',
};

export function decidePatch(draft: ProjectDraft, cmd: Cmd<'flag.patch'>, context: CommandContext): FlagDecision<'flag.patch'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  const before = found.value;
  // An empty patch changes nothing: no event, the flag keeps its version (Unleash answers 200 too).
  if (cmd.operations.length === 0) return acceptOnFlag([], before, before, context);
  for (const op of cmd.operations) {
    const writes = op.op === 'test' ? [] : op.op === 'move' ? [op.path, op.from] : [op.path];
    for (const path of writes) {
      const reason = FROZEN[topSegment(path)];
      if (reason !== undefined || path === '') {
        return refuse(fail('ValidationError', `"${path}": ${reason ?? 'the whole flag cannot be replaced'}`));
      }
    }
  }
  // Built for this patch alone: patched in place.
  const document = {
    name: before.name, description: before.description, type: before.type, stale: before.stale,
    impressionData: before.impressionData, project: draft.meta.id, createdAt: before.createdAt, lastSeenAt: before.lastSeenAt,
  };
  const patched = applyJsonPatch(document, cmd.operations, { owned: true });
  if (!patched.ok) return refuse(patched.error);
  const parsed = safeParseCapped(FeatureRecordSchema, patched.value);
  if (!parsed.success) return refuse(invalid(parsed.issues, parsed.capped));
  const next = parsed.output;
  return updated(draft, before, { description: next.description, type: next.type, stale: next.stale, impressionData: next.impressionData }, context);
}

export function decideArchive(draft: ProjectDraft, cmd: Cmd<'flag.archive'>, context: CommandContext): FlagDecision<'flag.archive'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch, true);
  if (!found.ok) return refuse(found.error);
  const before = found.value;
  const step = flagRules.archive(before.archived);
  if (step === null || step.archived === before.archived) return acceptOnFlag([], null, before, context);
  // Unleash 6.10: a parent stays while flags depend on it; an archived child lets go of its parents.
  const children = childrenOf(draft, before.name);
  if (children.length > 0) {
    return refuse(fail('InvalidOperationError', `You can not archive/delete this feature since other features depend on it (${children.slice(0, 10).map((c) => `"${c}"`).join(', ')}); remove their dependencies first.`));
  }
  const events: ProjectEvent[] = [];
  const parents = before.dependencies ?? [];
  if (parents.length > 0) events.push({ type: 'dependencies.removed', name: before.name, version: context.seq, removed: parents });
  events.push({ type: 'flag.archived', name: before.name, version: context.seq, at: context.at });
  return acceptOnFlag(events, null, before, context);
}

/** Revives the listed flags the lifecycle machine lets back (archived ones); others are left alone. */
export function decideRevive(draft: ProjectDraft, cmd: Cmd<'flag.revive'>, context: CommandContext): FlagDecision<'flag.revive'> {
  const events: ProjectEvent[] = [];
  for (const name of new Set(cmd.features)) {
    const before = draft.getFlag(name);
    if (!before || flagRules.revive(before.archived) === null) continue;
    events.push({ type: 'flag.revived', name, version: context.seq, at: context.at });
  }
  return accept(events, null);
}

/** Deletes the listed flags the lifecycle machine lets go (archived ones); others are left alone. */
export function decideDeleteArchived(draft: ProjectDraft, cmd: Cmd<'flag.delete-archived'>): FlagDecision<'flag.delete-archived'> {
  const events: ProjectEvent[] = [];
  for (const name of new Set(cmd.features)) {
    const before = draft.getFlag(name);
    if (before && flagRules.canDelete(before.archived)) events.push({ type: 'flag.deleted', name, before });
  }
  return accept(events, null);
}

export function decideClone(draft: ProjectDraft, cmd: Cmd<'flag.clone'>, context: CommandContext): FlagDecision<'flag.clone'> {
  const found = flagForChange(draft, cmd.feature, cmd.ifMatch);
  if (!found.ok) return refuse(found.error);
  const source = found.value;
  if (draft.getFlag(cmd.name)) return refuse(nameTaken(draft, cmd.name));
  const tooMany = checkFlagCount(draft, context);
  if (tooMany) return refuse(tooMany);
  const environments = dict(draft.meta.environments.map((env): [string, FlagEnvironment] => {
    const strategies = (own(source.environments, env)?.strategies ?? []).map((s) => ({
      ...s,
      id: randomUUID(),
      parameters: cmd.replaceGroupId && own(s.parameters, 'groupId') === source.name ? withKey(s.parameters, 'groupId', cmd.name) : s.parameters,
    }));
    return [env, { ...flagRules.newEnvironment(), strategies }];
  }));
  // Dependencies are cloned (as Unleash does); tags are not, and the clone starts its lifecycle at `initial`.
  const { tags: _tags, stages: _stages, ...cloned } = source;
  const flag: Flag = {
    ...cloned,
    name: cmd.name,
    stale: false,
    createdAt: context.at,
    lastSeenAt: null,
    ...flagRules.newFlag(),
    archivedAt: null,
    version: context.seq,
    environments,
    createdBy: context.by,
  };
  const tooLarge = checkFlagSize(flag, context);
  if (tooLarge) return refuse(tooLarge);
  return accept([{ type: 'flag.created', flag }], { value: flag, version: flag.version });
}
