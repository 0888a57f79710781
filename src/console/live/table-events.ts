/**
 * The flag table's live updates (`GET /projects/:projectId/events`, issue 31 §5): a server-sent event stream
 * fed from the committed-event feed (after each batch is on disk), never from polling. It carries names only:
 * `event: changed:<flag>` for every flag of the project a batch touched. One mechanism listens, htmx's SSE
 * extension: the table's rows for their own name (`hx-trigger="sse:changed:<flag>"`), each fetching itself again
 * through the row route, and a flag's page for its flag, fetching the page again (`#flag-page`); so what a
 * person sees is decided by the same permission check as any page request.
 *
 * Bounded per connection: names are gathered for {@link FLUSH_MS} and at most {@link MAX_PENDING} are held; a
 * client that stops reading (its queue full) is disconnected rather than buffered for.
 */
import type { CommittedFeed } from '../../actors/committed-feed.js';
import { SSE_KEEP_ALIVE, sseBytes, sseComment, sseText } from '../../http/streams/sse.js';

/** How long names are gathered before they are sent (one write per burst of commits). */
export const FLUSH_MS = 100;
/** Distinct flag names held for one connection between two writes; past it, further names wait for the next batch. */
export const MAX_PENDING = 1000;
/** A comment line this often keeps proxies from closing an idle stream. */
export const KEEP_ALIVE_MS = 25_000;
/** Chunks queued for a client that does not read before it is disconnected. */
const QUEUED_CHUNKS = 64;

/** The names of the flags `events` change (every flag event names its flag; `flag.created` carries it). */
export function changedFlags(events: readonly unknown[]): string[] {
  const names: string[] = [];
  for (const event of events as { type?: string; name?: unknown; flag?: { name?: unknown } }[]) {
    if (typeof event.name === 'string') names.push(event.name);
    else if (typeof event.flag?.name === 'string') names.push(event.flag.name);
  }
  return names;
}

/** The open live streams of one app, and how many it may hold. */
export class TableEventStreams {
  #open = 0;

  constructor(private readonly feed: CommittedFeed, private readonly max: number) {}

  /** How many streams are open now. */
  get open(): number {
    return this.#open;
  }

  /**
   * A stream of the project's changed flag names, or `'full'` when as many streams are open as allowed.
   *
   * @example const stream = live.stream('default'); if (stream !== 'full') return new Response(stream, { headers: SSE });
   */
  stream(projectId: string): ReadableStream<Uint8Array> | 'full' {
    if (this.#open >= this.max) return 'full';
    this.#open += 1;
    const pending = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    let keepAlive: NodeJS.Timeout | undefined;
    let stop = (): void => {};
    const release = () => {
      stop();
      stop = () => {};
    };
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (text: string) => {
          if ((controller.desiredSize ?? 0) <= 0) {
            release();
            controller.error(new Error('the client stopped reading its live updates'));
            return;
          }
          controller.enqueue(sseBytes(text));
        };
        const flush = () => {
          timer = undefined;
          let text = '';
          for (const name of pending) text += sseText({ event: `changed:${name}`, data: name });
          pending.clear();
          if (text) send(text);
        };
        const unsubscribe = this.feed.subscribe(({ scope, records }) => {
          if (scope === 'service' || scope.project !== projectId) return;
          for (const record of records) {
            for (const name of changedFlags(record.events)) if (pending.size < MAX_PENDING) pending.add(name);
          }
          if (pending.size > 0 && timer === undefined) timer = setTimeout(flush, FLUSH_MS);
        });
        const unClose = this.feed.onClose(() => {
          release();
          try { controller.close(); } catch { /* already closed */ }
        });
        keepAlive = setInterval(() => send(SSE_KEEP_ALIVE), KEEP_ALIVE_MS);
        stop = () => {
          unsubscribe();
          unClose();
          clearTimeout(timer);
          clearInterval(keepAlive);
          this.#open -= 1;
        };
        controller.enqueue(sseBytes(sseText({ retry: 3000 }) + sseComment('connected')));
      },
      cancel: () => release(),
    }, { highWaterMark: QUEUED_CHUNKS });
  }
}
