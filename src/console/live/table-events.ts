/**
 * The flag table's live updates (`GET /projects/:projectId/events`, issue 31 §5): a server-sent event stream
 * fed from the committed-event feed (after each batch is on disk), never from polling. It carries names only:
 * `event: changed:<flag>` for every flag of the project a batch touched. One mechanism listens, htmx's SSE
 * extension: the table's rows for their own name (`hx-trigger="sse:changed:<flag>"`), each fetching itself again
 * through the row route, and a flag's page for its flag, fetching the page again (`#flag-page`); so what a
 * person sees is decided by the same permission check as any page request.
 *
 * Bounded in number (`LIVE_PAGE_STREAMS`: in all, per session, per user) and per connection: names are gathered
 * for {@link FLUSH_MS} and at most {@link MAX_PENDING} are held; a client that stops reading (its queue full) is
 * disconnected rather than buffered for.
 */
import type { CommittedFeed } from '../../actors/committed-feed.js';
import { SSE_KEEP_ALIVE, sseBytes, sseComment, sseText } from '../../http/streams/sse.js';
import { LIVE_PAGE_STREAMS } from '../../limits.js';

/**
 * How long names are gathered before they are sent (one write per burst of commits): short beside the 100 ms a
 * change may take to reach every node's pages (docs/benchmark.md "Several nodes").
 */
export const FLUSH_MS = 20;
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

/** Who opens a stream: the session's key and the user, each counted against its own bound when present. */
export interface StreamOwner {
  session?: string | undefined;
  user?: string | undefined;
}

/** Why a stream was refused: too many open in all, for this session, or for this user. */
export type StreamRefusal = 'full' | 'session-full' | 'user-full';

/** What a refused page is told (429; docs/limits.md "Console live updates"). */
export const LIVE_REFUSALS: Record<StreamRefusal, string> = {
  'full': 'Too many live pages are open on this server: reload the page later',
  'session-full': `This session has ${LIVE_PAGE_STREAMS.perSession} live pages open, as many as it may: close some tabs, then reload this one`,
  'user-full': `You have ${LIVE_PAGE_STREAMS.perUser} live pages open, as many as you may: close some tabs or sessions, then reload this one`,
};

/** The open live streams of one app, and how many it may hold in all, per session and per user. */
export class TableEventStreams {
  #open = 0;
  readonly #byOwner = new Map<string, number>();

  constructor(private readonly feed: CommittedFeed, private readonly max: { total: number; perSession: number; perUser: number }) {}

  /** How many streams are open now. */
  get open(): number {
    return this.#open;
  }

  /**
   * A stream of the project's changed flag names, or why not: `'full'` when as many streams are open as
   * allowed, `'session-full'` / `'user-full'` when this session or user holds its share already.
   *
   * @example const stream = live.stream('default', { session: key }); if (typeof stream !== 'string') return new Response(stream, { headers: SSE });
   */
  stream(projectId: string, owner: StreamOwner = {}): ReadableStream<Uint8Array> | StreamRefusal {
    if (this.#open >= this.max.total) return 'full';
    const keys: string[] = [];
    if (owner.session !== undefined) {
      if ((this.#byOwner.get(`s:${owner.session}`) ?? 0) >= this.max.perSession) return 'session-full';
      keys.push(`s:${owner.session}`);
    }
    if (owner.user !== undefined) {
      if ((this.#byOwner.get(`u:${owner.user}`) ?? 0) >= this.max.perUser) return 'user-full';
      keys.push(`u:${owner.user}`);
    }
    this.#open += 1;
    for (const key of keys) this.#byOwner.set(key, (this.#byOwner.get(key) ?? 0) + 1);
    const letGo = () => {
      this.#open -= 1;
      for (const key of keys) {
        const left = (this.#byOwner.get(key) ?? 1) - 1;
        if (left > 0) this.#byOwner.set(key, left);
        else this.#byOwner.delete(key);
      }
    };
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
          letGo();
        };
        controller.enqueue(sseBytes(sseText({ retry: 3000 }) + sseComment('connected')));
      },
      cancel: () => release(),
    }, { highWaterMark: QUEUED_CHUNKS });
  }
}
