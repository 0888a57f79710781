/**
 * The key layout of the LevelDB store (docs/storage.md). `/` cannot occur in a project id (ids are
 * URL-friendly), so it separates parts; sequence numbers are zero-padded so keys sort in log order.
 */

const SEQ_WIDTH = 16;

/** A sequence number as a fixed-width, sortable key part. */
export const seqPart = (seq: number): string => seq.toString().padStart(SEQ_WIDTH, '0');

/** The scope of a log: a project id, or the service (users, tokens, environments). */
export type Scope = { project: string } | 'service';

/** A scope as the first part of its keys: `svc`, or `p/<projectId>`. */
export const scopePart = (scope: Scope): string => (scope === 'service' ? 'svc' : `p/${scope.project}`);

export const keys = {
  /** One project's registration; its value is the project's creation record. */
  project: (id: string) => `reg/${id}`,
  projectsPrefix: 'reg/',
  log: (scope: Scope, seq: number) => `${scopePart(scope)}/log/${seqPart(seq)}`,
  logPrefix: (scope: Scope) => `${scopePart(scope)}/log/`,
  snapshotHead: (scope: Scope, seq: number) => `${scopePart(scope)}/snap/${seqPart(seq)}/head`,
  snapshotChunk: (scope: Scope, seq: number, chunk: number) =>
    `${scopePart(scope)}/snap/${seqPart(seq)}/c${chunk.toString().padStart(6, '0')}`,
  snapshotPrefix: (scope: Scope) => `${scopePart(scope)}/snap/`,
  /**
   * Usage metrics, outside every log (docs/storage.md "Usage metrics"). Names are URI-encoded, so an
   * application name or instance id holding `/` stays one part.
   */
  usagePrefix: 'use/',
  usageCountsPrefix: 'use/c/',
  usageCount: (hour: string, project: string, flag: string, environment: string) =>
    `use/c/${hour}/${part(project)}/${part(flag)}/${part(environment)}`,
  usageSeenPrefix: 'use/s/',
  usageSeen: (project: string, flag: string) => `use/s/${part(project)}/${part(flag)}`,
  usageAppsPrefix: 'use/a/',
  usageApp: (appName: string) => `use/a/${part(appName)}`,
  usageInstancesPrefix: 'use/i/',
  usageInstance: (appName: string, instanceId: string) => `use/i/${part(appName)}/${part(instanceId)}`,
  /** On a store several nodes share: the number of the last usage flush any node wrote, and each flush's changes by number (`z`: after every record in key order). */
  usageGeneration: 'use/g',
  usageJournalPrefix: 'use/z/',
  usageJournal: (generation: number) => `use/z/${seqPart(generation)}`,
  /** On a store several nodes share: the fingerprint of the token key its tokens are hashed under (docs/storage.md "Token hashes"). */
  tokenKeyFingerprint: 'cfg/token-key',
  /**
   * Addon deliveries, outside every log (docs/storage.md "Integrations"): each addon's position in each scope's log
   * (`<scope>` as in log keys), when it started counting events, and its delivery log by entry id.
   */
  addonPrefix: (addonId: number) => `add/${addonId}/`,
  addonPositionPrefix: (addonId: number) => `add/${addonId}/p/`,
  addonPosition: (addonId: number, scope: Scope) => `add/${addonId}/p/${scopePart(scope)}`,
  addonSince: (addonId: number) => `add/${addonId}/since`,
  addonLogPrefix: (addonId: number) => `add/${addonId}/l/`,
  addonLog: (addonId: number, entryId: number) => `add/${addonId}/l/${seqPart(entryId)}`,
  addonsPrefix: 'add/',
  /** Console sessions, outside every log, by the keyed hash of their id (docs/storage.md "Sessions"). */
  sessionPrefix: 'ses/',
  session: (hash: string) => `ses/${hash}`,
};

/** The scope a position key names (the part after `add/<id>/p/`). */
export const scopeOfPart = (part: string): Scope => (part === 'svc' ? 'service' : { project: part.slice(2) });

/** A name as one part of a usage key. */
const part = (name: string): string => encodeURIComponent(name);

/** The parts of a usage key after its prefix, decoded. */
export const usageKeyParts = (key: string, prefix: string): string[] => key.slice(prefix.length).split('/').map(decodeURIComponent);

/** A log record's key, parsed: its scope's key part (`svc`, `p/<id>`) and its sequence number. */
export interface LogKey {
  scope: string;
  seq: number;
}

const LOG_KEY = /^(svc|p\/[^/]+)\/log\/(\d{16})$/;

/**
 * The scope and sequence number of a log record's key; null for any other key. A store that keeps log
 * records apart from the rest (PostgreSQL's log table) routes each key by it.
 *
 * @example parseLogKey('p/default/log/0000000000000042') // { scope: 'p/default', seq: 42 }
 */
export function parseLogKey(key: string): LogKey | null {
  const match = LOG_KEY.exec(key);
  return match ? { scope: match[1]!, seq: Number(match[2]) } : null;
}

/** The key of record `seq` in the log of the scope whose key part is `scope` (the inverse of {@link parseLogKey}). */
export const logKeyOf = (scope: string, seq: number): string => `${scope}/log/${seqPart(seq)}`;

/**
 * What the keys starting with `prefix` can be: the records of one log (`{ log: scope }`, `prefix` its log
 * prefix exactly), none of any log (`other`), or both kinds (`mixed`, e.g. the empty prefix).
 *
 * @example prefixHolds('svc/log/') // { log: 'svc' }; prefixHolds('use/') // 'other'; prefixHolds('p/') // 'mixed'
 */
export function prefixHolds(prefix: string): { log: string } | 'other' | 'mixed' {
  const exact = /^(svc|p\/[^/]+)\/log\/$/.exec(prefix);
  if (exact) return { log: exact[1]! };
  if ('svc/log/'.startsWith(prefix) || /^p\/[^/]*$/.test(prefix) || prefix === 'p') return 'mixed';
  if (/^(svc|p\/[^/]+)\/log\//.test(prefix)) return 'mixed';
  const project = /^p\/[^/]+\/(.*)$/.exec(prefix);
  if (project && 'log/'.startsWith(project[1]!)) return 'mixed';
  return 'other';
}

/** The upper bound for a range read of every key starting with `prefix`. */
export const prefixEnd = (prefix: string): string => `${prefix}\xff`;
