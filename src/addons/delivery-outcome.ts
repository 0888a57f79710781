/**
 * What the answers to an attempt's requests mean: each request succeeded, failed for good, or failed in a way worth
 * another try later (no answer, a timeout, 408, 425, 429, a 5xx, Slack's `ratelimited`); and the attempt's state and
 * words, as Unleash's integration events word them (`Webhook request was successful with status code: 200.`).
 */
import type { OutgoingRequest, Wording } from './provider-requests.js';

/** What the sender got for one request. */
export type SendResult =
  | { kind: 'answered'; status: number; body: string; retryAfterMs: number | null }
  /** No answer: `code` is the system's (`ECONNREFUSED`), `ETIMEDOUT` for the 10 s bound, `EPRIVATEADDRESS` for the URL guard. */
  | { kind: 'failed'; code: string; message: string; permanent: boolean };

/** One request's verdict: done, failed for good, or to be tried again. */
export interface RequestVerdict {
  result: 'ok' | 'failed' | 'retry';
  /** The status code, or the error code when there was no answer. */
  code: string;
  /** Slack's error words (`A platform error occurred: {...}`), for the App for Slack's summary. */
  error: string;
  /** How long the receiver asked to wait (`Retry-After`), if it did. */
  retryAfterMs: number | null;
}

/** Unleash's integration event states. */
export type DeliveryState = 'success' | 'failed' | 'successWithErrors';

const TRANSIENT_STATUS = new Set([408, 425, 429]);

/** Reads Slack's `{ok, error}`; undefined when the body is not that. */
function slackAnswer(body: string): { ok: boolean; error?: string } | undefined {
  try {
    const parsed = JSON.parse(body) as { ok?: unknown; error?: unknown };
    return typeof parsed.ok === 'boolean' ? { ok: parsed.ok, ...(typeof parsed.error === 'string' ? { error: parsed.error } : {}) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The verdict on one request's result.
 *
 * @example verdictOf(request, { kind: 'answered', status: 503, body: '', retryAfterMs: null }).result // 'retry'
 */
export function verdictOf(request: OutgoingRequest, sent: SendResult): RequestVerdict {
  if (sent.kind === 'failed') {
    return { result: sent.permanent ? 'failed' : 'retry', code: sent.code, error: `A request error occurred: ${sent.message}`, retryAfterMs: null };
  }
  const code = String(sent.status);
  const transient = sent.status >= 500 || TRANSIENT_STATUS.has(sent.status);
  if (sent.status === 429) return { result: 'retry', code, error: `A rate limit error occurred: retry after ${Math.round((sent.retryAfterMs ?? 0) / 1000)} seconds`, retryAfterMs: sent.retryAfterMs };
  if (sent.status < 200 || sent.status >= 300) return { result: transient ? 'retry' : 'failed', code, error: `An HTTP error occurred: status code ${sent.status}`, retryAfterMs: sent.retryAfterMs };
  if (request.answer === 'slack-api') {
    const answer = slackAnswer(sent.body);
    if (answer && !answer.ok) {
      const error = `A platform error occurred: ${JSON.stringify({ ok: false, error: answer.error })}`;
      return { result: answer.error === 'ratelimited' ? 'retry' : 'failed', code, error, retryAfterMs: null };
    }
  }
  return { result: 'ok', code, error: '', retryAfterMs: null };
}

const SUBJECT: Record<Exclude<Wording, 'slack' | 'slack-app'>, string> = {
  webhook: 'Webhook request',
  datadog: 'Datadog Events API request',
  'new-relic': 'New Relic Events API request',
  teams: 'Teams webhook request',
};

const unique = <T>(items: T[]): T[] => [...new Set(items)];

/**
 * The state and words of an attempt, from the verdicts of all the event's requests (earlier attempts' successes
 * included); a request still to be retried counts as failed here.
 *
 * @example summarize('webhook', [{ result: 'ok', code: '200', ... }], []) // { state: 'success', details: 'Webhook request was successful with status code: 200.' }
 */
export function summarize(wording: Wording, verdicts: RequestVerdict[], warnings: string[]): { state: DeliveryState; details: string } {
  const failed = verdicts.filter((v) => v.result !== 'ok');
  const lines = [...warnings];
  let state: DeliveryState;
  if (wording === 'slack' || wording === 'slack-app') {
    const n = verdicts.length;
    const codes = unique(verdicts.map((v) => v.code)).join(', ');
    const errors = unique(failed.map((v) => v.error)).join(' ');
    if (failed.length === 0) {
      state = 'success';
      lines.push(wording === 'slack' ? `All (${n}) Slack webhook requests were successful with status codes: ${codes}.` : `All (${n}) Slack client calls were successful.`);
    } else if (failed.length === n) {
      state = 'failed';
      lines.push(wording === 'slack' ? `All (${n}) Slack webhook requests failed with status codes: ${codes}.` : `All (${n}) Slack client calls failed with the following errors: ${errors}`);
    } else {
      state = 'successWithErrors';
      lines.push(wording === 'slack' ? `Some (${failed.length} of ${n}) Slack webhook requests failed. Status codes: ${codes}.` : `Some (${failed.length} of ${n}) Slack client calls failed. Errors: ${errors}`);
    }
  } else {
    const only = verdicts[0]!;
    state = only.result === 'ok' ? 'success' : 'failed';
    lines.push(`${SUBJECT[wording]} ${only.result === 'ok' ? 'was successful' : 'failed'} with status code: ${only.code}.`);
  }
  if (state === 'success' && warnings.length > 0) state = 'successWithErrors';
  return { state, details: lines.join('\n') };
}
