import { setImmediate as nextTurn } from 'node:timers/promises';
import { stableJsonPieces } from '../../actors/dumps/state-dump.js';

/** Most `GET /api/admin/state` and `GET /api/admin/backup` answers streaming at once (together); more are answered 429 (docs/api-decisions.md "Inspection"). */
export const DUMP_STREAMS_AT_ONCE = 2;

/** About this many characters of JSON per chunk: well under a millisecond of work between two turns of the event loop. */
export const DUMP_CHUNK_CHARS = 64 * 1024;

/**
 * Writes dumps as response bodies without holding the event loop: the document is serialized a chunk at a
 * time (whole flags, about {@link DUMP_CHUNK_CHARS} characters), with a turn of the event loop before each
 * next chunk and only as fast as the client reads. The bytes are those of `stableStringify(dump)`. At most
 * `limit` stream at once, so simultaneous dumps of a large service cannot pile up; a slot is freed when its
 * stream ends, fails or is cancelled (the client went away).
 *
 * @example const body = deps.dumps.stream(dumpRegistry(registry)!); if (!body) return tooMany(); return c.body(body)
 */
export class DumpStreams {
  private open = 0;

  constructor(
    readonly limit = DUMP_STREAMS_AT_ONCE,
    private readonly chunkChars = DUMP_CHUNK_CHARS,
  ) {}

  /**
   * A stream of `stableStringify(value)`, or null when `limit` dumps are already streaming. `value` must be
   * a consistent capture that nothing changes (committed states are immutable records; capture them
   * synchronously, as `dumpRegistry` does).
   */
  stream(value: unknown): ReadableStream<Uint8Array> | null {
    return this.streamPieces(stableJsonPieces(value));
  }

  /**
   * A stream of the concatenated `pieces` (text), under the same limit and pacing as {@link stream}; the
   * backup streams its lines through it. Null when `limit` streams are already open.
   */
  streamPieces(pieces: Generator<string, void, undefined>): ReadableStream<Uint8Array> | null {
    if (this.open >= this.limit) return null;
    this.open += 1;
    let held = true;
    const release = () => {
      if (held) this.open -= 1;
      held = false;
    };
    const encoder = new TextEncoder();
    let first = true;
    let cancelled = false;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          // Let other requests (and other dumps) run between two chunks.
          if (!first) await nextTurn();
          first = false;
          if (cancelled) return;
          let text = '';
          for (let next = pieces.next(); ; next = pieces.next()) {
            if (next.done) {
              if (text !== '') controller.enqueue(encoder.encode(text));
              controller.close();
              release();
              return;
            }
            text += next.value;
            if (text.length >= this.chunkChars) break;
          }
          controller.enqueue(encoder.encode(text));
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel: () => {
        cancelled = true;
        release();
        pieces.return();
      },
    });
  }
}
