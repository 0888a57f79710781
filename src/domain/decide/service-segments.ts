/**
 * The service's segment commands (docs/client-contract.md "Segments"): names unique, the number of segments and of their
 * values within the limits, a project segment's project known and, when a segment is narrowed to a project
 * or deleted, no strategy outside that project (or none at all) referencing it.
 *
 * Usage is read from the committed project states through {@link ServiceLookups}; the caller makes sure no
 * project can add a reference meanwhile (the registry's segment fence, see `src/use-cases/segments.use-cases.ts`).
 */
import { LIMIT_VARIABLES, SHAPE_LIMITS, overLimit, type Limits } from '../../limits.js';
import type { CommandContext } from '../context.js';
import { illegalConstraint } from '../definitions.js';
import { accept, fail, failAt, refuse, type Decision, type DomainError } from '../errors.js';
import { describeUse, segmentValueCount, type Segment, type SegmentInput, type SegmentUse } from '../segment.js';
import type { ServiceCommand } from '../service-commands.js';
import type { ServiceEvent } from '../service-events.js';
import type { ServiceLookups } from '../context.js';
import { forkService, type ServiceState } from '../service-state.js';
import { evolveService } from '../service-evolve.js';

type SegmentDecision = Decision<ServiceEvent, Segment>;
type Command<T extends ServiceCommand['type']> = Extract<ServiceCommand, { type: T }>;

/** Uses named in one message; the rest are counted. */
const USES_NAMED = 10;

const exceeds = (what: string, limit: number, key: keyof Limits) => fail('ExceedsLimitError', overLimit(what, limit, LIMIT_VARIABLES[key]));

const notFound = (id: number) => fail('NotFoundError', `Could not find segment with id ${id}`);

const segmentOf = (draft: ServiceState, id: number): Segment | undefined =>
  Object.hasOwn(draft.segments, String(id)) ? draft.segments[String(id)] : undefined;

/** The rules a create and an update share: the project exists, the name is free, the values fit. */
function checkInput(draft: ServiceState, input: SegmentInput, self: number | null, context: CommandContext, lookups: ServiceLookups): DomainError | null {
  if (input.project !== null && !lookups.projectExists(input.project)) return fail('NotFoundError', `Could not find project "${input.project}"`);
  if (Object.values(draft.segments).some((s) => s.name === input.name && s.id !== self)) {
    return fail('NameExistsError', `A segment named "${input.name}" already exists`);
  }
  const values = segmentValueCount(input.constraints);
  if (values > context.limits.segmentValues) {
    return exceeds(`The number of constraint values of one segment (${values} in "${input.name}")`, context.limits.segmentValues, 'segmentValues');
  }
  // A context field with legal values takes no other value, in a segment as in a strategy.
  return illegalConstraint(input.constraints, (name) => draft.contextFields.find((f) => f.name === name));
}

/** `a, b and 3 more`, for messages that name uses. */
function listUses(uses: readonly SegmentUse[]): string {
  const named = uses.slice(0, USES_NAMED).map(describeUse).join(', ');
  return uses.length > USES_NAMED ? `${named} and ${uses.length - USES_NAMED} more` : named;
}

const useDetails = (uses: readonly SegmentUse[]) => uses.slice(0, SHAPE_LIMITS.errorIssues).map((use) => ({ message: describeUse(use) }));

/** Projects that could not be recovered may reference the segment: nothing that depends on usage is decided blind. */
const unreadable = (id: number, projects: readonly string[]) => fail(
  'Unavailable',
  `Cannot tell whether project${projects.length > 1 ? 's' : ''} ${projects.map((p) => `"${p}"`).join(', ')} (not recovered from ${projects.length > 1 ? 'their logs' : 'its log'}) use${projects.length > 1 ? '' : 's'} segment ${id}; repair ${projects.length > 1 ? 'them' : 'it'} first`,
);

/** Creates a segment (its id the service's next), within the segment limits and the constraints' rules. */
export function decideCreateSegment(draft: ServiceState, cmd: Command<'segment.create'>, context: CommandContext, lookups: ServiceLookups): SegmentDecision {
  const invalid = checkInput(draft, cmd.segment, null, context, lookups);
  if (invalid) return refuse(invalid);
  if (Object.keys(draft.segments).length >= context.limits.segments) return refuse(exceeds('The number of segments', context.limits.segments, 'segments'));
  const segment: Segment = { id: draft.nextSegmentId, ...cmd.segment, createdAt: context.at, createdBy: cmd.createdBy, version: context.seq };
  return accept([{ type: 'segment.created', segment }], segment);
}

/**
 * Replaces name, description, project and constraints. Narrowing a segment to a project is refused while
 * strategies of other projects reference it (Unleash 6.10's rule); an update that changes nothing records nothing.
 */
export function decideUpdateSegment(draft: ServiceState, cmd: Command<'segment.update'>, context: CommandContext, lookups: ServiceLookups): SegmentDecision {
  const current = segmentOf(draft, cmd.id);
  if (!current) return refuse(notFound(cmd.id));
  const invalid = checkInput(draft, cmd.segment, cmd.id, context, lookups);
  if (invalid) return refuse(invalid);
  const { project } = cmd.segment;
  if (project !== null) {
    const usage = lookups.segmentUses(cmd.id);
    const others = usage.unreadable.filter((p) => p !== project);
    if (others.length > 0) return refuse(unreadable(cmd.id, others));
    const foreign = usage.uses.filter((use) => use.project !== project);
    if (foreign.length > 0) {
      return refuse(failAt('ValidationError', 'project', `segment ${cmd.id} is used by strategies outside project "${project}": ${listUses(foreign)}`, { details: useDetails(foreign) }));
    }
  }
  const segment: Segment = { ...current, ...cmd.segment, version: context.seq };
  if (sameContent(current, segment)) return accept([], current);
  return accept([{ type: 'segment.updated', segment, before: current }], segment);
}

/** Deleting a segment that a strategy references is refused (409), naming where it is used. */
export function decideDeleteSegment(draft: ServiceState, cmd: Command<'segment.delete'>, _context: CommandContext, lookups: ServiceLookups): SegmentDecision {
  const segment = segmentOf(draft, cmd.id);
  if (!segment) return refuse(notFound(cmd.id));
  const usage = lookups.segmentUses(cmd.id);
  if (usage.uses.length > 0) {
    const count = usage.uses.length;
    return refuse(fail(
      'InvalidOperationError',
      `Segment ${cmd.id} ("${segment.name}") is used by ${count} ${count === 1 ? 'strategy' : 'strategies'}: ${listUses(usage.uses)}; remove it from ${count === 1 ? 'that strategy' : 'them'} before deleting it`,
      useDetails(usage.uses),
    ));
  }
  if (usage.unreadable.length > 0) return refuse(unreadable(cmd.id, usage.unreadable));
  return accept([{ type: 'segment.deleted', segment }], segment);
}

/**
 * The segment changes of a change request, in order against a trial of the service (each seeing the ones
 * before), with the rules of the single update and delete; one refused refuses all, naming the segment.
 */
export function decideSegmentChanges(draft: ServiceState, cmd: Command<'segments.change'>, context: CommandContext, lookups: ServiceLookups): Decision<ServiceEvent, null> {
  const trial = forkService(draft);
  const events: ServiceEvent[] = [];
  for (const op of cmd.changes) {
    const decided = 'delete' in op
      ? decideDeleteSegment(trial, { type: 'segment.delete', id: op.id }, context, lookups)
      : decideUpdateSegment(trial, { type: 'segment.update', id: op.id, segment: op.segment }, context, lookups);
    if (!decided.ok) return refuse({ ...decided.error, message: `segment ${op.id}: ${decided.error.message}` });
    for (const event of decided.events) evolveService(trial, event);
    events.push(...decided.events);
  }
  return accept(cmd.dryRun ? [] : events, null);
}

const content = (s: Segment) => JSON.stringify([s.name, s.description, s.project, s.constraints]);
const sameContent = (a: Segment, b: Segment) => content(a) === content(b);
