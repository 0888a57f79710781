/**
 * Applies scheduled change requests when they fall due (docs/architecture.md "Change requests"). One timer,
 * armed for the earliest pending schedule of every project and re-armed whenever a request's events are
 * committed; at start, a run for every schedule that fell due while the service was stopped (each applied
 * then, and said so in the log and on the request). Every apply goes through the {@link SingleNodeDuty}
 * `change-requests.schedule`, so with several nodes only the one holding it applies.
 *
 * Exactly once: the apply names the schedule it found due, and the project mailbox applies a request only from
 * that schedule, still pending (`decide/change-request-apply.ts`); a schedule that failed or was suspended
 * waits for a person (reschedule, apply now, reject), as in Unleash.
 */
import type { CommittedBatch } from '../actors/committed-feed.js';
import type { Registry } from '../actors/registry.js';
import type { ApplyOutcome } from '../domain/change-request-commands.js';
import type { Result } from '../domain/result.js';
import type { Logger } from '../log.js';
import { applyRequest } from '../use-cases/change-request-state.use-cases.js';
import type { Clock } from './clock.js';
import type { SingleNodeDuty } from './single-node-duty.js';

/** The duty scheduled applies run under. */
export const SCHEDULE_DUTY = 'change-requests.schedule';

/**
 * How long the scheduler waits before it looks again at a due schedule it could not settle: this node does not
 * hold the duty (the holder may have stopped), or the apply was neither made nor recorded (the disk refused it).
 */
const NOT_HELD_RETRY_MS = 30_000;

/** A pending schedule: which request, and when. */
interface Due {
  project: string;
  id: number;
  scheduledAt: string;
}

export interface SchedulerParts {
  registry: Registry;
  log: Logger;
  clock: Clock;
  duty: SingleNodeDuty;
}

/** The scheduler of one registry's change requests; {@link start} it once, it stops when the registry closes. */
export class ChangeRequestScheduler {
  private cancelTimer: (() => void) | null = null;
  private stopped = false;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly unsubscribe: () => void;
  private readonly unClose: () => void;

  constructor(private readonly parts: SchedulerParts) {
    this.unsubscribe = parts.registry.feed.subscribe((batch) => this.committed(batch));
    this.unClose = parts.registry.feed.onClose(() => this.stop());
  }

  /**
   * Applies what fell due while the service was stopped (each logged as such), then arms the timer. Resolves
   * when that first run is done.
   */
  start(): Promise<void> {
    return this.run(true);
  }

  /** Stops for good: no timer, no new apply (one under way finishes or is refused by the closing actors). */
  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.unsubscribe();
    this.unClose();
  }

  /** Every pending schedule, earliest first. */
  private pending(): Due[] {
    const due: Due[] = [];
    const { registry } = this.parts;
    for (const project of registry.projectIds()) {
      for (const request of registry.project(project)?.state.changeRequests.requests.values() ?? []) {
        if (request.state === 'Scheduled' && request.schedule?.status === 'pending') due.push({ project, id: request.id, scheduledAt: request.schedule.scheduledAt });
      }
    }
    return due.sort((a, b) => (a.scheduledAt < b.scheduledAt ? -1 : a.scheduledAt > b.scheduledAt ? 1 : 0));
  }

  /** A batch with request events may have scheduled, rescheduled or closed one: the timer follows. */
  private committed(batch: CommittedBatch): void {
    if (this.stopped || batch.scope === 'service') return;
    const touched = batch.records.some((record) => record.events.some((event) => (event as { type: string }).type.startsWith('change-request.')));
    if (touched) this.arm(this.pending()[0], 0);
  }

  /** Arms the one timer for `next` (none: no timer), or after `retryMs` when given and sooner. */
  private arm(next: Due | undefined, retryMs: number): void {
    if (this.stopped) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (!next) return;
    const wait = Math.max(0, Date.parse(next.scheduledAt) - this.parts.clock.now());
    this.cancelTimer = this.parts.clock.setTimer(retryMs > 0 ? Math.max(wait, retryMs) : wait, () => void this.run(false));
  }

  /** Applies every schedule due now, one at a time; a run asked for while one is going runs again after it. */
  private run(atStart: boolean): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.applyDue(atStart);
        atStart = false;
      } while (this.again && !this.stopped);
    })().finally(() => { this.running = null; });
    return this.running;
  }

  private async applyDue(atStart: boolean): Promise<void> {
    if (this.stopped) return;
    const now = this.parts.clock.now();
    const all = this.pending();
    const due = all.filter((d) => Date.parse(d.scheduledAt) <= now);
    let retryMs = 0;
    for (const item of due) {
      if (this.stopped) return;
      const held = await this.parts.duty.runIfHeld(SCHEDULE_DUTY, () => this.applyOne(item, atStart, now));
      // Not held here, or an apply that neither applied nor recorded why (a disk that refused it): look again
      // later rather than at once, so a stuck schedule is not tried in a loop.
      if (!held.held || this.pending().some((d) => d.project === item.project && d.id === item.id && d.scheduledAt === item.scheduledAt)) retryMs = NOT_HELD_RETRY_MS;
      if (!held.held) break;
    }
    this.arm(this.pending()[0], retryMs);
  }

  private async applyOne(item: Due, atStart: boolean, now: number): Promise<void> {
    const { registry, log } = this.parts;
    const late = atStart && Date.parse(item.scheduledAt) < now;
    const note = late ? `Applied when flagpole started at ${new Date(now).toISOString()}: it was due at ${item.scheduledAt}, while the service was stopped.` : undefined;
    let result: Result<ApplyOutcome>;
    try {
      result = await applyRequest(registry, { projectId: item.project, id: item.id, scheduledAt: item.scheduledAt, note }, 'system');
    } catch (error) {
      // The registry closing under an apply (its actors refuse), or a disk that refused the write: the next start tries again.
      if (!this.stopped) log.error({ project: item.project, changeRequest: item.id, err: error }, `the scheduled apply of change request ${item.id} of project "${item.project}" failed; it stays scheduled`);
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
      if (late) log.warn(where, `change request ${item.id} of project "${item.project}" was due at ${item.scheduledAt} while the service was stopped: applied at start`);
      else log.info(where, `applied scheduled change request ${item.id} of project "${item.project}"`);
    } else {
      log.warn({ ...where, reason: outcome.reason }, `scheduled change request ${item.id} of project "${item.project}" was not applied (${outcome.outcome}): ${outcome.reason}`);
    }
  }
}
