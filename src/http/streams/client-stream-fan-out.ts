import type { CommittedFeed } from '../../actors/committed-feed.js';
import type { ClientDeltaQuery, DeltaAnswer } from '../../queries/sdk/client-delta.query.js';
import type { ResolvedQuery } from '../../queries/sdk/client-features.query.js';
import { message, refetch, type StreamFormat } from './client-stream-messages.js';
import { fanOutSpacing, MIN_FANOUT_SPACING_MS, type Slices } from './client-stream-pacing.js';

/** What a fan-out reads and moves on a connection of `ClientStreams`. */
export interface Subscriber {
  format: StreamFormat;
  resolved: ResolvedQuery;
  key: string;
  /** What a fan-out shares its answers by besides the revision: the format and the query key, built once. */
  answerKey: string;
  /** The revision this client has been sent. */
  revision: number;
  open: boolean;
}

/** The streams a fan-out writes to: the open ones, and a way to queue bytes to one (whether it was queued). */
export interface FanOutTargets<S extends Subscriber> {
  count(): number;
  list(): S[];
  deliver(subscriber: S, bytes: Uint8Array): boolean;
}

/**
 * When and what the client streams are sent after commits. The feed's listener only notes that something was
 * committed; the fan-out runs on a later turn of the event loop, so the actors' mailboxes never wait for it,
 * and batches committed together go out as one message. A change after a quiet spell goes out at once; while
 * writes keep coming the next fan-out waits {@link fanOutSpacing}, gathering them into one message. Each
 * message is built once per (query, revision) and the same bytes go to every stream that needs them.
 */
export class FanOut<S extends Subscriber> {
  private scheduled = false;
  /** A fan-out is under way (between its slices). */
  private fanning = false;
  /** `performance.now()` before which the next fan-out does not start. */
  private nextFanOutAt = 0;
  /** `performance.now()` of the first commit not yet fanned out (null: none waiting). */
  private pendingSince: number | null = null;
  /** When the last fan-out started and the feed's revision then; the changes a second between two starts. */
  private lastStart = { at: Number.NEGATIVE_INFINITY, revision: 0 };
  private changesPerSecond = 0;
  private readonly deliveryListeners: ((seconds: number) => void)[] = [];

  constructor(
    private readonly feed: CommittedFeed,
    private readonly delta: ClientDeltaQuery,
    private readonly slices: Slices,
    private readonly targets: FanOutTargets<S>,
  ) {}

  /**
   * Calls `listener` after each fan-out that sent something, with the seconds from the first commit it carried
   * until its writes were handed to the sockets: the server's part of a change reaching the SDKs.
   */
  onDelivery(listener: (seconds: number) => void): void {
    this.deliveryListeners.push(listener);
  }

  /** Notes a commit: a fan-out runs once the spacing allows (at once after a quiet spell). */
  schedule(): void {
    if (this.targets.count() === 0) return;
    this.pendingSince ??= performance.now();
    // A fan-out under way schedules the next one when it ends.
    if (this.scheduled || this.fanning) return;
    this.scheduled = true;
    const wait = this.nextFanOutAt - performance.now();
    if (wait > 0) setTimeout(() => this.run(), wait);
    else setImmediate(() => this.run());
  }

  /**
   * Sends every stream what it has not seen, one answer per (query, revision) shared by all who need it, in
   * slices. Streams opened during it were hydrated at their revision; those closed are skipped.
   */
  private run(): void {
    this.scheduled = false;
    this.fanning = true;
    const since = this.pendingSince;
    this.pendingSince = null;
    const start = { at: performance.now(), revision: this.feed.revision };
    this.changesPerSecond = (start.revision - this.lastStart.revision) / ((start.at - this.lastStart.at) / 1000);
    this.lastStart = start;
    // Answers by format and query key, then by the revision the client was at.
    const answers = new Map<string, Map<number, { answer: DeltaAnswer; bytes: Uint8Array | null }>>();
    this.slices.run(this.targets.list(), (subscriber) => {
      if (!subscriber.open) return false;
      let byRevision = answers.get(subscriber.answerKey);
      if (!byRevision) answers.set(subscriber.answerKey, (byRevision = new Map()));
      let shared = byRevision.get(subscriber.revision);
      if (!shared) {
        const answer = this.delta.since(subscriber.resolved, subscriber.key, subscriber.revision);
        shared = { answer, bytes: answer.kind === 'none' ? null : subscriber.format === 'ofrep' ? refetch(answer.revision) : message('unleash-updated', answer) };
        byRevision.set(subscriber.revision, shared);
      }
      subscriber.revision = shared.answer.revision;
      return shared.bytes !== null && this.targets.deliver(subscriber, shared.bytes);
    }, (sent, busy, end) => this.ran(since, sent, busy, end));
  }

  /** After a fan-out: the delivery time to its listeners, and when the next may start. */
  private ran(since: number | null, sent: number, busy: number, end: number): void {
    this.fanning = false;
    if (since !== null && sent > 0) for (const listener of this.deliveryListeners) listener((end - since) / 1000);
    const underLoad = this.pendingSince !== null;
    this.nextFanOutAt = end + (underLoad ? fanOutSpacing(busy, this.changesPerSecond) : MIN_FANOUT_SPACING_MS);
    if (underLoad) this.schedule();
  }
}
