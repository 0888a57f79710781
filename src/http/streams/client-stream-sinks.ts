import type { ServerResponse } from 'node:http';

/** What can close the socket under a stream at once (the Node response, when served by a Node server). */
export interface Closable {
  destroy(): void;
}

/**
 * Where a client stream's bytes go: the controller of a WHATWG stream (the route's `Response`, served by Hono)
 * or Node's response itself (the stream's fast path: one `res.write` per message, no promise per chunk).
 */
export interface StreamSink {
  /** Bytes it may still hold unread before its client counts as stalled (negative: past it; null: unknown). */
  room(): number | null;
  write(bytes: Uint8Array): void;
  /** Ends the stream cleanly. */
  end(): void;
  /** Closes it at once (its socket, when there is one). */
  destroy(): void;
}

/**
 * A WHATWG stream holding at most `bufferBytes` unread, whose sink goes to `attach` when it starts; `detach`
 * runs when its reader cancels (the client went away, or its socket was destroyed). A stalled client's
 * `socket` is destroyed; without one (under `app.request`) the stream errors.
 */
export function webStreamSink(bufferBytes: number, socket: Closable | undefined, attach: (sink: StreamSink) => void, detach: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start: (controller) => attach({
      room: () => controller.desiredSize,
      write: (bytes) => controller.enqueue(bytes),
      end: () => {
        try {
          controller.close();
        } catch {
          // Already errored by a cancel in flight: nothing left to end.
        }
      },
      destroy: () => (socket ? socket.destroy() : controller.error(new Error('stalled client'))),
    }),
    cancel: detach,
  }, new ByteLengthQueuingStrategy({ highWaterMark: bufferBytes }));
}

/**
 * Node's response as a sink holding at most `bufferBytes` unread (what the response and its socket still
 * hold). Each message is one `res.write`: one chunk of the chunked body (Node corks the socket while it
 * frames it), or the bytes as they are for an HTTP/1.0 client.
 * Hand-kept for speed: docs/performance.md "SDK stream fast path".
 */
export function responseSink(res: ServerResponse, bufferBytes: number): StreamSink {
  return {
    room: () => bufferBytes - res.writableLength,
    write: (bytes) => { res.write(bytes); },
    end: () => { res.end(); },
    destroy: () => { res.destroy(); },
  };
}
