/**
 * The service's segment commands and the project's check of the segments a strategy names, given / when /
 * then over pure data: `given` events evolved into a service state, `when` a command decided against it with
 * lookups standing in for the projects, `then` the events recorded or the error kind. Refusals carry no events.
 */
import { BUILT_IN_STRATEGIES } from '../../src/domain/definitions.js';
import { describe, expect, test } from 'vitest';
import { emptyServiceState } from '../../src/actors/service-model.js';
import type { ProjectCommand } from '../../src/domain/commands.js';
import type { ProjectLookups, SegmentUsage, ServiceLookups } from '../../src/domain/context.js';
import { decide } from '../../src/domain/decide.js';
import { decideService } from '../../src/domain/decide/service.js';
import type { Decision } from '../../src/domain/errors.js';
import { ProjectDraft, evolve } from '../../src/domain/project-state.js';
import type { Segment, SegmentInput, SegmentUse } from '../../src/domain/segment.js';
import { evolveService } from '../../src/domain/service-evolve.js';
import { forkService, type ServiceState } from '../../src/domain/service-state.js';
import type { ServiceCommand } from '../../src/domain/service-commands.js';
import type { ServiceEvent } from '../../src/domain/service-events.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/limits.js';

const AT = '2025-03-01T00:00:00.000Z';
const IN_BETA = { contextName: 'plan', operator: 'IN' as const, values: ['beta'], caseInsensitive: false, inverted: false };

const input = (name: string, extra: Partial<SegmentInput> = {}): SegmentInput => ({ name, description: null, project: null, constraints: [IN_BETA], ...extra });
const stored = (id: number, name: string, extra: Partial<Segment> = {}): Segment =>
  ({ id, ...input(name), createdAt: '2025-01-01T00:00:00.000Z', createdBy: 'ops', version: id, ...extra });
const created = (segment: Segment): ServiceEvent => ({ type: 'segment.created', segment });

/** The committed project states the lookups stand for: segment uses, known projects, unreadable ones. */
interface World { uses?: SegmentUse[]; projects?: string[]; unreadable?: string[]; limits?: Partial<Limits> }

function given(events: ServiceEvent[]) {
  const state: ServiceState = emptyServiceState();
  for (const event of events) evolveService(state, event);
  return {
    when(command: ServiceCommand, world: World = {}) {
      const lookups: ServiceLookups = {
        projectExists: (id) => (world.projects ?? ['default', 'web']).includes(id),
        segmentUses: (): SegmentUsage => ({ uses: world.uses ?? [], unreadable: world.unreadable ?? [] }),
        environmentProjects: () => [],
        flagsByProject: () => ({ served: [], unreadable: [] }),
      };
      const draft = forkService(state);
      const decision = decideService(draft, command, { at: AT, by: 'test', seq: 42, limits: { ...DEFAULT_LIMITS, ...world.limits } }, lookups) as Decision<ServiceEvent, unknown>;
      return {
        then(expected: ServiceEvent[] | string) {
          if (typeof expected === 'string') {
            expect(decision.ok ? 'accepted' : decision.error.kind).toBe(expected);
          } else {
            expect(decision.ok ? decision.events : decision.error).toEqual(expected);
          }
          return decision;
        },
      };
    },
  };
}

const use = (project: string, feature: string | null, environment = 'development'): SegmentUse => ({ project, feature, environment, archived: false });

describe('segment.create', () => {
  test('takes the next id, the time and sequence number of its record, and who created it', () => {
    given([created(stored(1, 'a')), { type: 'segment.deleted', segment: stored(1, 'a') }])
      .when({ type: 'segment.create', segment: input('b', { project: 'web' }), createdBy: 'ops' })
      .then([created({ id: 2, ...input('b', { project: 'web' }), createdAt: AT, createdBy: 'ops', version: 42 })]);
  });

  test('refuses a name in use (409), an unknown project (404), too many segments or values (400)', () => {
    given([created(stored(1, 'a'))]).when({ type: 'segment.create', segment: input('a'), createdBy: null }).then('NameExistsError');
    given([]).when({ type: 'segment.create', segment: input('a', { project: 'nope' }), createdBy: null }).then('NotFoundError');
    given([created(stored(1, 'a'))]).when({ type: 'segment.create', segment: input('b'), createdBy: null }, { limits: { segments: 1 } }).then('ExceedsLimitError');
    const values = [{ ...IN_BETA, values: ['1', '2'] }, { ...IN_BETA, values: ['3'] }];
    given([]).when({ type: 'segment.create', segment: input('b', { constraints: values }), createdBy: null }, { limits: { segmentValues: 3 } }).then([
      created({ id: 1, ...input('b', { constraints: values }), createdAt: AT, createdBy: null, version: 42 }),
    ]);
    given([]).when({ type: 'segment.create', segment: input('b', { constraints: values }), createdBy: null }, { limits: { segmentValues: 2 } }).then('ExceedsLimitError');
  });
});

describe('segment.update', () => {
  const a = stored(1, 'a');

  test('replaces the chosen fields and keeps id, createdAt and createdBy; the version is its record', () => {
    given([created(a)]).when({ type: 'segment.update', id: 1, segment: input('renamed', { description: 'd' }) })
      .then([{ type: 'segment.updated', segment: { ...a, name: 'renamed', description: 'd', version: 42 }, before: a }]);
  });

  test('records nothing when nothing changes', () => {
    given([created(a)]).when({ type: 'segment.update', id: 1, segment: input('a') }).then([]);
  });

  test('refuses an unknown id (404), a name of another segment (409), an unknown project (404)', () => {
    given([]).when({ type: 'segment.update', id: 1, segment: input('a') }).then('NotFoundError');
    given([created(a), created(stored(2, 'b'))]).when({ type: 'segment.update', id: 1, segment: input('b') }).then('NameExistsError');
    given([created(a)]).when({ type: 'segment.update', id: 1, segment: input('a', { project: 'nope' }) }).then('NotFoundError');
  });

  test('moves to a project only when no strategy of another project uses it', () => {
    const moved = { type: 'segment.updated' as const, segment: { ...a, project: 'web', version: 42 }, before: a };
    given([created(a)]).when({ type: 'segment.update', id: 1, segment: input('a', { project: 'web' }) }, { uses: [use('web', 'f')] }).then([moved]);
    const refused = given([created(a)]).when({ type: 'segment.update', id: 1, segment: input('a', { project: 'web' }) }, { uses: [use('web', 'f'), use('default', 'g')] }).then('ValidationError');
    expect(!refused.ok && refused.error.message).toMatch(/outside project "web": default\/g in development/);
    // Made global, it may be used anywhere: usage is not even read.
    given([created(stored(1, 'a', { project: 'web' }))]).when({ type: 'segment.update', id: 1, segment: input('a') }, { uses: [use('web', 'f')], unreadable: ['x'] })
      .then([{ type: 'segment.updated', segment: { ...a, version: 42 }, before: stored(1, 'a', { project: 'web' }) }]);
    given([created(a)]).when({ type: 'segment.update', id: 1, segment: input('a', { project: 'web' }) }, { unreadable: ['broken'] }).then('Unavailable');
  });
});

describe('segment.delete', () => {
  const a = stored(1, 'a');

  test('deletes an unused segment; its id is not given again', () => {
    const state = given([created(a)]);
    state.when({ type: 'segment.delete', id: 1 }).then([{ type: 'segment.deleted', segment: a }]);
    given([created(a), { type: 'segment.deleted', segment: a }]).when({ type: 'segment.create', segment: input('a'), createdBy: null })
      .then([created({ id: 2, ...input('a'), createdAt: AT, createdBy: null, version: 42 })]);
  });

  test('refuses one in use (409) naming every use, an unknown id (404), and deciding blind (503)', () => {
    const refused = given([created(a)]).when({ type: 'segment.delete', id: 1 }, { uses: [use('default', 'f'), { ...use('web', 'g', 'production'), archived: true }, use('web', null, 'production')] }).then('InvalidOperationError');
    expect(!refused.ok && refused.error.message).toBe('Segment 1 ("a") is used by 3 strategies: default/f in development, web/g (archived) in production, the default strategy of project "web" in production; remove it from them before deleting it');
    expect(!refused.ok && refused.error.details).toHaveLength(3);
    given([]).when({ type: 'segment.delete', id: 1 }).then('NotFoundError');
    given([created(a)]).when({ type: 'segment.delete', id: 1 }, { unreadable: ['broken'] }).then('Unavailable');
  });
});

describe('a strategy names segments (project mailbox)', () => {
  const META = { id: 'p', name: 'P', description: '', createdAt: AT, environments: ['development'], defaultStrategies: {}, members: {} };
  const segments: Record<number, { id: number; name: string; project: string | null } | 'changing'> = {
    1: { id: 1, name: 'global', project: null }, 2: { id: 2, name: 'mine', project: 'p' }, 3: { id: 3, name: 'theirs', project: 'q' }, 4: 'changing',
  };
  const lookups: ProjectLookups = { segment: (id) => segments[id], strategyDefinition: (name) => BUILT_IN_STRATEGIES.find((d) => d.name === name), contextField: () => undefined };

  function project(commands: ProjectCommand[]) {
    const draft = new ProjectDraft({ meta: META, flags: new Map(), version: 0 });
    const run = (command: ProjectCommand, seq: number) => decide(draft, command, { at: AT, by: 'test', seq, limits: DEFAULT_LIMITS, lookups });
    commands.forEach((command, i) => {
      const decision = run(command, i + 1);
      if (!decision.ok) throw new Error(decision.error.message);
      for (const event of decision.events) evolve(draft, event);
    });
    return { draft, when: (command: ProjectCommand) => run(command, commands.length + 1) };
  }
  const add = (segmentIds: number[]): ProjectCommand => ({ type: 'strategy.add', feature: 'f', environment: 'development', strategy: { name: 'default', segments: segmentIds } });
  const create: ProjectCommand = { type: 'flag.create', name: 'f', description: '', flagType: 'release', impressionData: false };
  const message = (decision: Decision<unknown, unknown>) => (decision.ok ? 'accepted' : decision.error.message);

  test('a global segment and one of its own project: accepted', () => {
    expect(message(project([create]).when(add([1, 2])))).toBe('accepted');
  });

  test('an unknown one, another project\'s, one being deleted: 400 naming it', () => {
    expect(message(project([create]).when(add([1, 9])))).toBe('"segments": segment 9 does not exist');
    expect(message(project([create]).when(add([3])))).toMatch(/segment 3 \("theirs"\) belongs to project "q"/);
    expect(message(project([create]).when(add([4])))).toMatch(/segment 4 is being deleted/);
    expect(message(project([]).when({ type: 'default-strategy.set', environment: '*', strategy: { name: 'default', segments: [3] } }))).toMatch(/"q"/);
  });

  test('a segment the strategy already names is not looked up again: editing it while that segment changes still works', () => {
    const { draft, when } = project([create, add([1])]);
    // The strategy took segment 4 when it was usable; now segment 4 is being deleted.
    const strategy = { ...draft.getFlag('f')!.environments['development']!.strategies[0]!, segments: [1, 4] };
    draft.setFlag({ ...draft.getFlag('f')!, environments: { development: { enabled: false, strategies: [strategy] } } });
    const update = (segmentIds: number[]): ProjectCommand =>
      ({ type: 'strategy.update', feature: 'f', environment: 'development', strategyId: strategy.id, strategy: { name: 'flexibleRollout', segments: segmentIds } });
    expect(message(when(update([4, 1])))).toBe('accepted');
    expect(message(when(update([4, 1, 3])))).toMatch(/"q"/);
    expect(message(when({ type: 'strategy.patch', feature: 'f', environment: 'development', strategyId: strategy.id, operations: [{ op: 'add', path: '/segments/-', value: 4 }] }))).toBe('accepted');
  });

  test('without lookups (replay, pure tests) no segment is known', () => {
    const draft = new ProjectDraft({ meta: META, flags: new Map(), version: 0 });
    const made = decide(draft, create, { at: AT, by: 'test', seq: 1, limits: DEFAULT_LIMITS });
    if (made.ok) for (const event of made.events) evolve(draft, event);
    expect(message(decide(draft, add([1]), { at: AT, by: 'test', seq: 2, limits: DEFAULT_LIMITS }))).toBe('"segments": segment 1 does not exist');
  });
});
