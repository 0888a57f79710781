/**
 * The one framer of server-sent events (the WHATWG `text/event-stream` format): the SDK and OFREP streams'
 * messages (`client-stream-messages.ts`) and the console's live updates (`src/console/live/`) are framed here.
 */

/** One message: any of its fields (an event name, an `id` a reconnect sends back, `data`, the reconnect delay). */
export interface SseMessage {
  event?: string;
  id?: string | number;
  /** Text; a line break in it starts another `data:` line (the client joins them with `\n`). */
  data?: string;
  /** Milliseconds a client waits before it reconnects. */
  retry?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * A message as text: one line a field, ended by a blank line.
 *
 * @example sseText({ event: 'changed:checkout', data: 'checkout' }) // 'event: changed:checkout\ndata: checkout\n\n'
 */
export function sseText(message: SseMessage): string {
  let text = '';
  if (message.retry !== undefined) text += `retry: ${message.retry}\n`;
  if (message.event !== undefined) text += `event: ${message.event}\n`;
  if (message.id !== undefined) text += `id: ${message.id}\n`;
  if (message.data !== undefined) {
    // JSON is one line: most data needs no split.
    text += LINE_BREAK.test(message.data) ? message.data.split(LINE_BREAK).map((line) => `data: ${line}\n`).join('') : `data: ${message.data}\n`;
  }
  return `${text}\n`;
}

/** A comment (a client ignores it): keeps a quiet connection open through proxies, or says the stream is open. */
export const sseComment = (text: string): string => `: ${text}\n\n`;

const encoder = new TextEncoder();

/** A message (or comment) as the bytes written to a connection. */
export const sseBytes = (text: string): Uint8Array => encoder.encode(text);

/** The keep-alive comment every stream sends when quiet. */
export const SSE_KEEP_ALIVE = sseComment('keep-alive');
