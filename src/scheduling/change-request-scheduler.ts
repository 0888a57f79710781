/**
 * Applies scheduled change requests when they fall due (docs/architecture.md "Change requests"). It runs as a
 * {@link SingletonWork} under the lease {@link SCHEDULER_LEASE}, started as the addons' deliveries are (`flagpole
 * start`): with several nodes over one PostgreSQL only the node holding the lease has a timer. While it runs: one
 * timer, armed for the earliest pending schedule of every project and re-armed whenever a request's events are
 * committed; when it begins (a start, or the lease won), a run for every schedule that fell due while no
 * scheduler ran (each applied then, and said so in the log and on the request).
 *
 * Exactly once: a schedule is state (its time is in the project's log), and the apply names the schedule it found
 * due; the project mailbox applies a request only from that schedule, still pending (`decide/change-request-apply.ts`),
 * so a second scheduler, a restart or a lease handed over never applies it twice. A schedule that failed or was
 * suspended waits for a person (reschedule, apply now, reject), as in Unleash.
 */
import type { CommittedBatch } from '../actors/committed-feed.js';
import type { Registry } from '../actors/registry.js';
import type { RunningWork, SingletonWork } from '../actors/addons/singleton-work.js';
import type { ApplyOutcome } from '../domain/change-request-commands.js';
import type { Result } from '../domain/result.js';
import type { Logger } from '../log.js';
import { deletedScheduler, suspendSchedulesOf } from '../use-cases/change-request-schedules.use-cases.js';
import { applyRequest } from '../use-cases/change-request-state.use-cases.js';
import type { Clock } from './clock.js';

/** The name of the lease the scheduler runs under (`SingletonWork`). */
export const SCHEDULER_LEASE = 'change-request-scheduler';

/**
 * How long the scheduler waits before it looks again at a due schedule its apply left as it was: neither
 * applied nor recorded why (the disk refused the write), so it is not tried in a loop.
 */
const RETRY_MS = 30_000;

/** A pending schedule: which request, when, and who set it. */
interface Due {
  project: string;
  id: number;
  scheduledAt: string;
  by: string;
}

/** What the scheduler works with: the registry it applies in, the log it reports to, the clock it arms timers on. */
export interface SchedulerParts {
  registry: Registry;
  log: Logger;
  clock: Clock;
}

/** The scheduler of one registry's change requests: {@link start} it once; it stops when the registry closes. */
export class ChangeRequestScheduler {
  private held: RunningWork | null = null;
  private running = false;
  private cancelTimer: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;
  private current: Promise<void> | null = null;
  private again = false;
  private readonly unClose: () => void;

  constructor(private readonly parts: SchedulerParts) {
    this.unClose = parts.registry.feed.onClose(() => void this.close());
  }

  /** Applies schedules from now on, on the node that holds the lease {@link SCHEDULER_LEASE}. */
  start(work: SingletonWork): void {
    this.held ??= work.run(SCHEDULER_LEASE, () => this.begin());
  }

  /** Resolves once no run is under way (a timer that fired, or the first run after {@link start}). */
  async idle(): Promise<void> {
    while (this.current) await this.current;
  }

  /** Gives the lease up: no timer, no new apply; an apply under way finishes first. */
  async close(): Promise<void> {
    this.unClose();
    const held = this.held;
    this.held = null;
    await held?.stop();
  }

  private begin(): RunningWork {
    this.running = true;
    this.unsubscribe = this.parts.registry.feed.subscribe((batch) => this.committed(batch));
    void this.run(true);
    return { stop: () => this.end() };
  }

  private async end(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.idle();
  }

  /** Every pending schedule, earliest first. */
  private pending(): Due[] {
    const due: Due[] = [];
    const { registry } = this.parts;
    for (const project of registry.projectIds()) {
      for (const request of registry.project(project)?.state.changeRequests.requests.values() ?? []) {
        if (request.state === 'Scheduled' && request.schedule?.status === 'pending') due.push({ project, id: request.id, scheduledAt: request.schedule.scheduledAt, by: request.schedule.by });
      }
    }
    return due.sort((a, b) => (a.scheduledAt < b.scheduledAt ? -1 : a.scheduledAt > b.scheduledAt ? 1 : 0));
  }

  /** A batch with request events may have scheduled, rescheduled or closed one: the timer follows. */
  private committed(batch: CommittedBatch): void {
    if (!this.running || batch.scope === 'service') return;
    const touched = batch.records.some((record) => record.events.some((event) => (event as { type: string }).type.startsWith('change-request.')));
    if (touched) this.arm(this.pending()[0], 0);
  }

  /** Arms the one timer for `next` (none: no timer), no sooner than `retryMs` when given. */
  private arm(next: Due | undefined, retryMs: number): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (!this.running || !next) return;
    const wait = Math.max(0, Date.parse(next.scheduledAt) - this.parts.clock.now());
    this.cancelTimer = this.parts.clock.setTimer(Math.max(wait, retryMs), () => void this.run(false));
  }

  /** Applies every schedule due now, one at a time; a run asked for while one is going runs again after it. */
  private run(begun: boolean): Promise<void> {
    if (this.current) {
      this.again = true;
      return this.current;
    }
    this.current = (async () => {
      try {
        do {
          this.again = false;
          await this.applyDue(begun);
          begun = false;
        } while (this.again && this.running);
      } catch (error) {
        this.parts.log.error({ err: error }, 'the scheduler of change requests could not look at the schedules; it looks again at the next request event');
      }
    })().finally(() => { this.current = null; });
    return this.current;
  }

  private async applyDue(begun: boolean): Promise<void> {
    const now = this.parts.clock.now();
    const due = this.pending().filter((d) => Date.parse(d.scheduledAt) <= now);
    let retryMs = 0;
    for (const item of due) {
      if (!this.running) return;
      await this.applyOne(item, begun, now);
      const stuck = this.pending().some((d) => d.project === item.project && d.id === item.id && d.scheduledAt === item.scheduledAt);
      if (stuck) retryMs = RETRY_MS;
    }
    this.arm(this.pending()[0], retryMs);
  }

  private async applyOne(item: Due, begun: boolean, now: number): Promise<void> {
    const { registry, log } = this.parts;
    const gone = deletedScheduler(registry, item.by);
    if (gone !== null) {
      // Deleted after setting it, and the suspension not recorded then (a stop in between): recorded now instead of the apply.
      await suspendSchedulesOf(registry, gone, 'system');
      log.warn({ project: item.project, changeRequest: item.id, scheduledAt: item.scheduledAt }, `scheduled change request ${item.id} of project "${item.project}" was not applied: the user who scheduled it was deleted`);
      return;
    }
    const late = begun && Date.parse(item.scheduledAt) < now;
    const note = late ? `Applied at ${new Date(now).toISOString()}, when the scheduler started: it was due at ${item.scheduledAt}, while no scheduler ran (the service was stopped).` : undefined;
    let result: Result<ApplyOutcome>;
    try {
      result = await applyRequest(registry, { projectId: item.project, id: item.id, scheduledAt: item.scheduledAt, note }, 'system');
    } catch (error) {
      // The registry closing under an apply (its actors refuse), or a disk that refused the write: tried again later.
      if (this.running) log.error({ project: item.project, changeRequest: item.id, err: error }, `the scheduled apply of change request ${item.id} of project "${item.project}" failed; it stays scheduled`);
      return;
    }
    const where = { project: item.project, changeRequest: item.id, scheduledAt: item.scheduledAt };
    if (!result.ok) {
      // Rescheduled, rejected or applied meanwhile: not due by this schedule any more.
      log.debug({ ...where, reason: result.error.message }, 'scheduled apply not made');
      return;
    }
    const outcome = result.value;
    if (outcome.outcome === 'applied') {
      if (late) log.warn(where, `change request ${item.id} of project "${item.project}" was due at ${item.scheduledAt} while no scheduler ran: applied when the scheduler started`);
      else log.info(where, `applied scheduled change request ${item.id} of project "${item.project}"`);
    } else {
      log.warn({ ...where, reason: outcome.reason }, `scheduled change request ${item.id} of project "${item.project}" was not applied (${outcome.outcome}): ${outcome.reason}`);
    }
  }
}
