/**
 * The key layout of the LevelDB store (docs/storage.md). `/` cannot occur in a project id (ids are
 * URL-friendly), so it separates parts; sequence numbers are zero-padded so keys sort in log order.
 */

const SEQ_WIDTH = 16;

/** A sequence number as a fixed-width, sortable key part. */
export const seqPart = (seq: number): string => seq.toString().padStart(SEQ_WIDTH, '0');

/** The scope of a log: a project id, or the service (users, tokens, environments). */
export type Scope = { project: string } | 'service';

const scopePart = (scope: Scope): string => (scope === 'service' ? 'svc' : `p/${scope.project}`);

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
  snapshotSeqPrefix: (scope: Scope, seq: number) => `${scopePart(scope)}/snap/${seqPart(seq)}/`,
};

/** The upper bound for a range read of every key starting with `prefix`. */
export const prefixEnd = (prefix: string): string => `${prefix}\xff`;
