import { CorruptRecordError } from '../../../snapshots/codec.js';
import type { Store } from '../../../snapshots/store.js';
import type { ServiceState } from '../../domain/service-state.js';
import { IncompatibleSnapshotError, recoverState, type Recovered } from './recover.js';
import { emptyServiceState, type ServiceModel } from '../service-model.js';

/** Why a stored project or the service log is not (fully) served: a damaged record, or a snapshot of machine versions this code cannot read. */
export type UnavailableError = CorruptRecordError | IncompatibleSnapshotError;

/** Whether `error` is one recovery works around (by not serving, or serving read-only) rather than a fault. */
export function isUnavailableError(error: unknown): error is UnavailableError {
  return error instanceof CorruptRecordError || error instanceof IncompatibleSnapshotError;
}

/**
 * The service state from its snapshot and log. A damaged record, or a snapshot this code cannot read, does
 * not stop the start: the state is recovered up to the record before the damage (empty when that cannot
 * be read either), and `unavailable` names why, so the service is served read-only.
 *
 * @example const { recovered, unavailable } = await recoverService(store, model);
 */
export async function recoverService(store: Store, model: ServiceModel): Promise<{ recovered: Recovered<ServiceState>; unavailable: UnavailableError | null }> {
  const recover = (atMost?: number) => recoverState(store, model, (meta: ServiceState) => meta, emptyServiceState, atMost);
  try {
    return { recovered: await recover(), unavailable: null };
  } catch (error) {
    if (!isUnavailableError(error)) throw error;
    const damagedSeq = error instanceof CorruptRecordError ? logSeqOf(error.key) : null;
    if (damagedSeq !== null) {
      try {
        return { recovered: await recover(damagedSeq - 1), unavailable: error };
      } catch (again) {
        if (!isUnavailableError(again)) throw again;
      }
    }
    return { recovered: { state: emptyServiceState(), seq: 0, snapshotSeq: 0, snapshotBytes: 0, replayed: 0, notices: [] }, unavailable: error };
  }
}

/** What the service's writes answer while its log is served read-only as of `servedSeq`. */
export function serviceReadOnlyMessage(error: UnavailableError, servedSeq: number): string {
  return `The service log (users, tokens, environments, segments) could not be recovered (${error.message}); it is served read-only as of log position ${servedSeq} until the data is repaired`;
}

/** The sequence number of a log key (`.../log/<seq>`), or null for any other key. */
function logSeqOf(key: string): number | null {
  const match = /\/log\/(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}
