import type { Contact } from '../../snapshots/shared-log.js';
import type { WriteHealth } from '../../snapshots/store.js';

/** Whether the registry serves everything, and if not, what and why (for `/health` and the start's log). */
export interface ServingState {
  /**
   * `serving`: reads and writes work. `degraded`: reads work, some or all writes do not. `unhealthy`: a node
   * of several has heard nothing from the database past the bound: it takes no writes, and what it serves
   * may be older than what the others serve (a load balancer should take it out).
   */
  status: 'serving' | 'degraded' | 'unhealthy';
  /** One sentence per cause, for an operator. */
  problems: string[];
  /** The last write failed, or one has waited for the store past the write timeout. */
  writesFailing: boolean;
  writes: WriteHealth;
}

/** What {@link servingState} weighs. */
export interface ServingFacts {
  writes: WriteHealth;
  /** The write timeout (ms): a write waiting longer is stuck. */
  writeTimeoutMs: number;
  /** What a write waits for, in words (`Store.writesTo`); `the disk` when absent. */
  writesTo?: string | undefined;
  /** Why the service log is read-only, or null. */
  serviceReadOnly: string | null;
  /** The projects not served, with why. */
  unavailable: ReadonlyMap<string, Error>;
  /** On a store several nodes share: the node's contact with it, and how long without it makes the node unhealthy. */
  contact?: { contact: Contact; timeoutMs: number; now: number } | undefined;
}

/**
 * Serving, or serving reads while writes fail: the store's last write failed or one is stuck past the
 * write timeout, the service log is read-only, or projects could not be recovered; unhealthy when a node of
 * several has lost the database for longer than its bound.
 *
 * @example servingState({ writes, writeTimeoutMs: 10_000, serviceReadOnly: null, unavailable: new Map() }).status // 'serving' while writes work
 */
export function servingState({ writes, writeTimeoutMs, writesTo = 'the disk', serviceReadOnly, unavailable, contact }: ServingFacts): ServingState {
  const problems: string[] = [];
  const silentMs = contact ? contact.now - contact.contact.lastContact : 0;
  const cutOff = contact !== undefined && silentMs > contact.timeoutMs;
  if (cutOff) problems.push(`no contact with the database for ${silentMs} ms (DATABASE_CONTACT_TIMEOUT_MS ${contact.timeoutMs}): this node takes no writes, and may serve an older state than the other nodes`);
  if (writes.failingSince !== null) problems.push(`writes are failing since ${new Date(writes.failingSince).toISOString()}: ${writes.lastError ?? 'unknown error'}`);
  const stuck = writes.writingForMs > writeTimeoutMs;
  if (stuck) problems.push(`a write has been waiting for ${writesTo} for ${writes.writingForMs} ms (timeout ${writeTimeoutMs} ms)`);
  if (serviceReadOnly !== null) problems.push(serviceReadOnly);
  for (const [id, error] of unavailable) problems.push(`project "${id}" is not served: ${error.message}`);
  const status = cutOff ? 'unhealthy' : problems.length === 0 ? 'serving' : 'degraded';
  return { status, problems, writesFailing: writes.failingSince !== null || stuck || cutOff, writes };
}
