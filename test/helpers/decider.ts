/**
 * Given / when / then over the pure deciders, in the Emmett style: `given` takes past facts (events), `when`
 * a command, `then` the events it must record or the error it must be refused with. No actor, no storage,
 * no clock: every decision runs at {@link AT}, by {@link BY}, with sequence numbers counted from the facts.
 *
 * @example
 * ```ts
 * given([flagCreated('a')]).when({ type: 'flag.archive', feature: 'a' }).then([flagArchived('a')]);
 * given([flagCreated('a'), flagArchived('a')]).when(createFlag('a')).then({ error: 'NameExistsError' });
 * givenService([userCreated(admin(1))]).when({ type: 'user.delete', userId: 1 }).then({ error: 'ValidationError' });
 * ```
 *
 * `then` makes a spec look like a promise to `await`: never await one (it is synchronous).
 */
import { expect } from 'vitest';
import type { ProjectCommand, ProjectReplies } from '../../src/domain/commands.js';
import type { CommandContext, ServiceLookups } from '../../src/domain/context.js';
import { decide } from '../../src/domain/decide.js';
import { decideService } from '../../src/domain/decide/service.js';
import type { Decision, ErrorKind } from '../../src/domain/errors.js';
import type { ProjectEvent } from '../../src/domain/events.js';
import { ProjectDraft, evolve, type ProjectState } from '../../src/domain/project-state.js';
import { emptyBook } from '../../src/domain/change-request-book.js';
import { evolveService } from '../../src/domain/service-evolve.js';
import { forkService, type ServiceState } from '../../src/domain/service-state.js';
import type { ServiceCommand, ServiceReplies } from '../../src/domain/service-commands.js';
import type { ServiceEvent } from '../../src/domain/service-events.js';
import type { Flag } from '../../src/domain/types.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { AT, META, stamped } from './project-events.js';

export { AT };
/** Who sends every command of a spec. */
export const BY = 'test';

/** A refusal `then` expects: its kind, and optionally what its message says. */
export interface Refusal {
  error: ErrorKind;
  message?: RegExp;
}

/** The pure parts of a decider: a state forked into a draft, a decision, and the evolution by an event. */
interface DeciderOf<S, D, C, E> {
  fork(state: S): D;
  decide(draft: D, command: C, context: CommandContext): Decision<E, unknown>;
  evolve(draft: D, event: E): void;
  /** The event as recorded at `seq` (flag events carry the sequence number as the flag's version). */
  stamp(event: E, seq: number): E;
}

/**
 * What `when` decided: one or more commands against one draft, each seeing the events of those before it, as
 * commands that arrive together are decided in one mailbox batch.
 */
export class Decided<D, E, R> {
  constructor(
    private readonly decider: DeciderOf<unknown, D, unknown, E>,
    /** The draft the commands were decided on, with the events of the accepted ones evolved onto it. */
    readonly draft: D,
    readonly decisions: Decision<E, unknown>[],
    /** The sequence number of the first command. */
    readonly seq: number,
  ) {}

  /** The decision of the last command. */
  get decision(): Decision<E, R> {
    return this.decisions.at(-1) as Decision<E, R>;
  }

  /**
   * Every command was accepted with these events (in order; expected flag events are stamped with the
   * command's sequence number, asymmetric matchers welcome), or the last one was refused with this error
   * and recorded nothing.
   */
  then(expected: E[] | Refusal): this {
    if (typeof expected === 'function') throw new Error('a spec is not a promise: do not await it or return it from a test');
    const earlier = this.decisions.slice(0, -1);
    for (const decision of earlier) expect(decision.ok, 'an earlier command of the batch was accepted').toBe(true);
    if (Array.isArray(expected)) {
      const events = this.decisions.flatMap((d) => (d.ok ? d.events : []));
      const seqs = this.decisions.flatMap((d, i) => (d.ok ? d.events.map(() => this.seq + i) : []));
      expect(this.decision, 'accepted').toMatchObject({ ok: true });
      expect(events).toEqual(expected.map((event, i) => this.decider.stamp(event, seqs[i] ?? this.seq)));
    } else {
      expect(this.decision.ok, 'refused').toBe(false);
      if (!this.decision.ok) {
        expect(this.decision.error.kind).toBe(expected.error);
        if (expected.message) expect(this.decision.error.message).toMatch(expected.message);
      }
    }
    return this;
  }

  /** The last command was accepted and answered `expected` (compared with `toEqual`). */
  thenReply(expected: R): this {
    expect(this.decision.ok, 'accepted').toBe(true);
    if (this.decision.ok) expect(this.decision.reply).toEqual(expected);
    return this;
  }
}

/** The facts before `when`: a state built by evolving them, one command (one sequence number) each. */
export class Given<S, D, C, E, RM> {
  constructor(
    private readonly decider: DeciderOf<S, D, C, E>,
    private readonly state: S,
    /** Sequence number of the next command. */
    readonly seq: number,
  ) {}

  /** A new draft of the given state: every `when` decides on its own, so one `given` serves many. */
  draft(): D {
    return this.decider.fork(this.state);
  }

  /** Decides `commands` in order against one draft, at sequence numbers following the facts. */
  when<K extends C & { type: keyof RM }>(...commands: [...C[], K]): Decided<D, E, RM[K['type']]> {
    const draft = this.draft();
    const decisions = commands.map((command, i) => {
      const decision = this.decider.decide(draft, command, { at: AT, by: BY, seq: this.seq + i, limits: DEFAULT_LIMITS });
      if (decision.ok) for (const event of decision.events) this.decider.evolve(draft, event);
      return decision;
    });
    return new Decided(this.decider as DeciderOf<unknown, D, unknown, E>, draft, decisions, this.seq);
  }
}

const projectDecider: DeciderOf<ProjectState, ProjectDraft, ProjectCommand, ProjectEvent> = {
  fork: (state) => new ProjectDraft(state),
  decide: (draft, command, context) => decide(draft, command, context),
  evolve,
  stamp: stamped,
};

/**
 * A project (id `p`, environments `development` and `production`, see {@link META}) after `events`; the nth
 * event is recorded at sequence number n, and `when` decides at the next one.
 */
export function given(events: ProjectEvent[]): GivenProject {
  const draft = new ProjectDraft({ meta: META, flags: new Map(), version: 0 });
  events.forEach((event, i) => evolve(draft, stamped(event, i + 1)));
  return new GivenProject(draft.publishTo({ meta: META, flags: new Map(), changeRequests: emptyBook(), version: 0 }), events.length + 1);
}

/** The facts of a project spec, and the flags they left. */
export class GivenProject extends Given<ProjectState, ProjectDraft, ProjectCommand, ProjectEvent, ProjectReplies> {
  constructor(private readonly facts: ProjectState, seq: number) {
    super(projectDecider, facts, seq);
  }

  /** A flag as the facts left it. */
  flag(name: string): Flag {
    const flag = this.facts.flags.get(name);
    if (!flag) throw new Error(`no flag "${name}" in the given facts`);
    return flag;
  }
}

/** The flag `name` after an accepted project decision: its events evolved onto the state it was decided on. */
export function flagAfter(then: Decided<ProjectDraft, ProjectEvent, unknown>, name: string): Flag {
  expect(then.decisions.every((d) => d.ok), 'accepted').toBe(true);
  const flag = then.draft.getFlag(name);
  if (!flag) throw new Error(`no flag "${name}" after the decision`);
  return flag;
}

/** Lookups of a service spec: the projects that exist outside the service state. */
export const projects = (...ids: string[]): ServiceLookups => ({
  projectExists: (id) => ids.includes(id), segmentUses: () => ({ uses: [], unreadable: [] }), environmentProjects: () => [], flagsByProject: () => ({ served: [], unreadable: [] }),
});

/**
 * The service state after `events` (from an empty one: no environments, users or tokens), deciding with
 * `lookups` (by default only project `default` exists).
 */
export function givenService(events: ServiceEvent[], lookups: ServiceLookups = projects('default')): Given<ServiceState, ServiceState, ServiceCommand, ServiceEvent, ServiceReplies> {
  const state: ServiceState = { environments: [], users: {}, passwords: {}, nextUserId: 1, tokens: {}, segments: {}, nextSegmentId: 1, tagTypes: [], contextFields: [], strategyDefinitions: [] };
  for (const event of events) evolveService(state, event);
  return new Given<ServiceState, ServiceState, ServiceCommand, ServiceEvent, ServiceReplies>({
    fork: forkService,
    decide: (draft, command, context) => decideService(draft, command, context, lookups),
    evolve: evolveService,
    stamp: (event) => event,
  }, state, events.length + 1);
}
