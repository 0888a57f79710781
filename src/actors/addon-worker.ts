/**
 * One addon's delivery loop: it follows the committed command logs from its durable positions (`addon-positions.ts`),
 * turns each record into Unleash events, keeps those the addon takes, and delivers them one at a time, retrying with
 * growing waits while the receiver fails in a way that may pass; each attempt goes to the delivery log. A position
 * moves only once a record's events are done, so a crash or a kill delivers them again after the restart (at least
 * once). The loop runs beside the mailboxes and never blocks them: a slow or hanging receiver holds up only this addon.
 */
import { CorruptRecordError, decode } from '../../snapshots/codec.js';
import { keys, scopeOfPart, type Scope } from '../../snapshots/keys.js';
import type { LogRecord } from '../../snapshots/records.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import { secretsOf, takes, type Addon } from '../domain/addons/addon.js';
import { summarize, verdictOf, type RequestVerdict } from '../addons/delivery-outcome.js';
import { sendRequest, type SenderSettings } from '../addons/http-sender.js';
import { planDelivery, type DeliveryPlan, type PlanSettings } from '../addons/provider-requests.js';
import { redacted } from '../addons/redact.js';
import { unleashEventsOf, type CommittedEntry, type EventLookups } from '../addons/unleash-events.js';
import type { UnleashEvent } from '../addons/unleash-event.js';
import type { Logger } from '../log.js';
import type { AddonPositions } from './addon-positions.js';
import type { DeliveryLog, DeliveryLogEntry } from './delivery-log.js';

/** The wait before attempt n + 1: `firstMs` doubled per attempt, at most `maxMs`; past `giveUpMs` since the first, the event is given up. */
export interface RetrySettings {
  firstMs: number;
  maxMs: number;
  giveUpMs: number;
}

/** How deliveries are made (`src/config.ts` reads them: `PUBLIC_URL`, `ADDON_*`, `UNLEASH_ALLOW_*`). */
export interface DeliverySettings {
  plan: PlanSettings;
  sender: SenderSettings;
  retry: RetrySettings;
  /** Log records read from the store at a time. */
  recordsPerRead: number;
  /** Delivery log entries kept per addon. */
  logEntries: number;
}

/** What a worker reads and writes. */
export interface WorkerDeps {
  store: Store;
  log: DeliveryLog;
  lookups: EventLookups;
  /** The last committed sequence number of a scope; undefined when the scope is gone (a deleted project). */
  head(scope: Scope): number | undefined;
  settings: DeliverySettings;
  logger: Logger;
}

const partOf = (scope: Scope): string => (scope === 'service' ? 'svc' : `p/${scope.project}`);

/** Delivers one addon's events; started and stopped by `AddonDeliveries`. */
export class AddonWorker {
  private readonly dirty = new Set<string>();
  /** Ends the wait for work (a commit) and, separately, the wait before a retry (a change, a stop). */
  private wakeIdle: (() => void) | null = null;
  private wakeRetry: (() => void) | null = null;
  private stopped = false;
  /** Aborts the request in flight when the worker stops. */
  private readonly abort = new AbortController();
  private readonly running: Promise<void>;

  constructor(private addon: Addon, private readonly positions: AddonPositions, private readonly deps: WorkerDeps, scopes: Scope[]) {
    for (const scope of [...scopes, ...positions.scopes()]) this.dirty.add(partOf(scope));
    this.running = this.loop().catch((error: unknown) => deps.logger.error({ addon: addon.id, err: error }, 'addon deliveries stopped by an unexpected error'));
  }

  /** The addon as configured now. */
  get config(): Addon {
    return this.addon;
  }

  /** A batch was committed in `scope`: there may be events to deliver. */
  notify(scope: Scope): void {
    this.dirty.add(partOf(scope));
    const wake = this.wakeIdle;
    this.wakeIdle = null;
    wake?.();
  }

  /** The addon was changed: the next attempt uses the new configuration (a retry wait is cut short). */
  update(addon: Addon): void {
    this.addon = addon;
    this.interrupt();
  }

  /** Stops after the request in flight (its event is delivered again by the next start); resolves once stopped. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.interrupt();
    await this.running;
  }

  private interrupt(): void {
    const wakes = [this.wakeIdle, this.wakeRetry];
    this.wakeIdle = null;
    this.wakeRetry = null;
    for (const wake of wakes) wake?.();
  }

  /** Waits until a commit or {@link interrupt}. */
  private idle(): Promise<void> {
    return new Promise<void>((resolve) => { this.wakeIdle = resolve; });
  }

  /** Waits `ms` before a retry, or until {@link interrupt}. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => { this.wakeRetry = null; resolve(); }, ms);
      this.wakeRetry = () => { clearTimeout(timer); resolve(); };
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const part = this.dirty.values().next().value;
      if (part === undefined) {
        await this.idle();
        continue;
      }
      // To the end of the line first: scopes take turns, and a batch committed meanwhile keeps it here.
      this.dirty.delete(part);
      const scope = scopeOfPart(part);
      try {
        if (await this.advance(scope)) this.dirty.add(part);
      } catch (error) {
        // A store that failed a read or a write (a full disk): the position has not moved; try again later.
        this.deps.logger.warn({ addon: this.addon.id, scope: part, err: error }, 'addon deliveries: reading the log failed; trying again');
        this.dirty.add(part);
        await this.pause(this.deps.settings.retry.firstMs);
      }
    }
  }

  /** Delivers the next records of `scope`; true when more may follow. */
  private async advance(scope: Scope): Promise<boolean> {
    const head = this.deps.head(scope);
    if (head === undefined) {
      if (this.positions.scopes().some((s) => partOf(s) === partOf(scope))) await this.write([this.positions.drop(scope)]);
      return false;
    }
    let position = await this.positions.of(scope);
    if (position >= head) return false;
    const entries = await this.read(scope, position);
    if (entries.length === 0) return false;
    if (entries[0]!.seq > position + 1) {
      this.deps.logger.warn({ addon: this.addon.id, scope: partOf(scope), from: position + 1, to: entries[0]!.seq - 1 }, 'addon deliveries: log records gone before they were delivered (LOG_RETENTION, or a restore); going on after them');
    }
    let unsaved = false;
    for (const entry of entries) {
      const events = unleashEventsOf(entry, this.deps.lookups).filter((event) => takes(this.addon, event));
      for (const [i, event] of events.entries()) {
        if (this.stopped) return false;
        const done = await this.deliver(event);
        if (done === null) return false;
        // The record's last outcome and the position after it in one batch: a log showing it means it is saved.
        await this.write(i === events.length - 1 ? [...done, this.positions.set(scope, entry.seq)] : done);
      }
      position = entry.seq;
      unsaved = events.length === 0;
    }
    if (unsaved) await this.write([this.positions.set(scope, position)]);
    return position < head;
  }

  /** The records after `position`, a bounded number; a damaged one ends the read before it (it is reported). */
  private async read(scope: Scope, position: number): Promise<CommittedEntry[]> {
    const out: CommittedEntry[] = [];
    try {
      for await (const [key, value] of this.deps.store.entries(keys.logPrefix(scope), { gt: keys.log(scope, position), limit: this.deps.settings.recordsPerRead })) {
        const record = decode<LogRecord>(key, value);
        out.push({ scope, seq: record.seq, at: record.at, by: record.by, events: record.events });
      }
    } catch (error) {
      if (!(error instanceof CorruptRecordError)) throw error;
      this.deps.logger.error({ addon: this.addon.id, key: error.key }, 'addon deliveries: a damaged log record stops this scope\'s deliveries');
    }
    return out;
  }

  /**
   * Attempts `event` until it is done (delivered, failed for good, or given up): the writes of its last log entry, for
   * the caller to make with the position; null when the worker stopped first (the event goes again at the next start).
   */
  private async deliver(event: UnleashEvent): Promise<BatchOp[] | null> {
    const { retry } = this.deps.settings;
    const firstAt = Date.now();
    let planned = this.addon;
    let plan = planDelivery(planned, event, this.deps.settings.plan);
    let verdicts: RequestVerdict[] = [];
    for (let attempt = 1; !this.stopped; attempt += 1) {
      if (plan.nothingToSend !== undefined) return this.entry(event, plan, { state: 'failed', details: plan.nothingToSend }, attempt, null);
      verdicts = await this.send(plan, verdicts);
      if (this.stopped) return null;
      const summary = summarize(plan.wording, verdicts, plan.warnings);
      const waits = verdicts.filter((v) => v.result === 'retry');
      if (waits.length === 0) return this.entry(event, plan, summary, attempt, null);
      const now = Date.now();
      if (now - firstAt >= retry.giveUpMs) {
        this.deps.logger.warn({ addon: this.addon.id, provider: this.addon.provider, event: event.type, attempts: attempt }, 'addon delivery given up');
        return this.entry(event, plan, { state: summary.state, details: `${summary.details}\nGave up after ${attempt} attempts since ${new Date(firstAt).toISOString()}.` }, attempt, null);
      }
      const asked = Math.max(0, ...waits.map((v) => v.retryAfterMs ?? 0));
      const wait = Math.min(retry.maxMs, Math.max(asked, retry.firstMs * 2 ** (attempt - 1)));
      const retryAt = new Date(now + wait).toISOString();
      await this.write(this.entry(event, plan, { state: summary.state, details: `${summary.details}\nAttempt ${attempt} did not get through; the next is due at ${retryAt}.` }, attempt, retryAt));
      this.deps.logger.info({ addon: this.addon.id, provider: this.addon.provider, event: event.type, attempt, codes: waits.map((v) => v.code) }, 'addon delivery failed; retrying');
      await this.pause(wait);
      if (this.addon !== planned) {
        // A changed addon is a new plan: every request goes again (a channel may receive the event twice).
        planned = this.addon;
        plan = planDelivery(planned, event, this.deps.settings.plan);
        verdicts = [];
      }
    }
    return null;
  }

  /** Sends the requests without a verdict yet, or whose verdict is to retry; keeps the others. */
  private async send(plan: DeliveryPlan, before: RequestVerdict[]): Promise<RequestVerdict[]> {
    const out: RequestVerdict[] = [];
    for (const [i, request] of plan.requests.entries()) {
      const known = before[i];
      out.push(known !== undefined && known.result !== 'retry' ? known : verdictOf(request, await sendRequest(request, this.deps.settings.sender, this.abort.signal)));
      if (this.stopped) break;
    }
    return out;
  }

  /** The writes of one attempt's delivery log entry, with the addon's secrets masked wherever they appear. */
  private entry(event: UnleashEvent, plan: DeliveryPlan, outcome: { state: DeliveryLogEntry['state']; details: string }, attempt: number, retryAt: string | null): BatchOp[] {
    const secrets = secretsOf(this.addon);
    return this.deps.log.append({
      integrationId: this.addon.id, createdAt: new Date().toISOString(), state: outcome.state,
      stateDetails: redacted(outcome.details, secrets), event, details: redacted(plan.details, secrets), attempt, retryAt,
    });
  }

  /** An unsynced write of the addon's own keys (the next synced batch, or the system, makes it durable). */
  private async write(ops: BatchOp[]): Promise<void> {
    try {
      await this.deps.store.writeUnsynced(ops);
    } catch (error) {
      this.deps.logger.warn({ addon: this.addon.id, err: error }, 'addon deliveries: a write of the delivery log or position failed; the event may be delivered again');
    }
  }
}
