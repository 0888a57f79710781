/**
 * The usage records as the store holds them (docs/storage.md "Usage metrics"): the write of each change a
 * flush plans, and the reading of a stored record (at start, or from another node's flush) into the counts
 * and applications.
 */
import { CorruptRecordError, decode, encode } from '../../snapshots/codec.js';
import { keys, usageKeyParts } from '../../snapshots/keys.js';
import type { BatchOp } from '../../snapshots/store.js';
import type { ApplicationChange, ClientApplication, ClientApplications, ClientInstance } from '../domain/client-applications.js';
import type { UsageCounts } from '../domain/usage-counts.js';
import type { CountChange, Counts, SeenRecord } from '../domain/usage-records.js';

/** An hour as a key part: `2026-11-23T19`. */
const hourPart = (hour: number) => new Date(hour).toISOString().slice(0, 13);
const parseHour = (part: string) => Date.parse(`${part}:00:00.000Z`);

/** Reads the stored record `value` of `key` into `counts` or `applications`; a {@link CorruptRecordError} when it cannot be. */
export function loadStored(counts: UsageCounts, applications: ClientApplications, key: string, value: string): void {
  const bad = (reason: string) => new CorruptRecordError(key, reason);
  if (key.startsWith(keys.usageCountsPrefix)) {
    const [hour, project, flag, environment, ...rest] = usageKeyParts(key, keys.usageCountsPrefix);
    const ms = parseHour(hour ?? '');
    if (!project || !flag || !environment || rest.length > 0 || !Number.isFinite(ms)) throw bad('not a usage count key');
    const cell = decode<Counts>(key, value);
    counts.loadCell(project, flag, { hour: ms, environment, yes: cell.yes, no: cell.no, variants: cell.variants ?? {} });
  } else if (key.startsWith(keys.usageSeenPrefix)) {
    const [project, flag, ...rest] = usageKeyParts(key, keys.usageSeenPrefix);
    if (!project || !flag || rest.length > 0) throw bad('not a usage sighting key');
    counts.loadSeen(project, flag, decode<SeenRecord>(key, value));
  } else if (key.startsWith(keys.usageAppsPrefix)) {
    applications.loadApp(decode<ClientApplication>(key, value));
  } else if (key.startsWith(keys.usageInstancesPrefix)) {
    applications.loadInstance(decode<ClientInstance>(key, value));
  } else {
    throw bad('unknown usage key');
  }
}

/**
 * One change another node's flush stored: a record's new value (read as a load reads it) or its deletion.
 * Keys it does not hold a record under (a damaged one it deleted) change nothing.
 */
export function applyStored(counts: UsageCounts, applications: ClientApplications, key: string, value: string | null): void {
  if (value !== null) {
    try {
      loadStored(counts, applications, key, value);
    } catch {
      // Written by another node as it reads it: never expected; such a record is left out here as at a load.
    }
    return;
  }
  if (key.startsWith(keys.usageCountsPrefix)) {
    const [hour, project, flag, environment] = usageKeyParts(key, keys.usageCountsPrefix);
    if (project && flag && environment) counts.removeCell(project, flag, parseHour(hour ?? ''), environment);
  } else if (key.startsWith(keys.usageSeenPrefix)) {
    const [project, flag] = usageKeyParts(key, keys.usageSeenPrefix);
    if (project && flag) counts.removeFlag(project, flag);
  } else if (key.startsWith(keys.usageAppsPrefix)) {
    const [appName] = usageKeyParts(key, keys.usageAppsPrefix);
    if (appName) applications.remove(appName);
  } else if (key.startsWith(keys.usageInstancesPrefix)) {
    const [appName, instanceId] = usageKeyParts(key, keys.usageInstancesPrefix);
    if (appName && instanceId) applications.remove(appName, instanceId);
  }
}

/** The write of one planned change of the counts. */
export function countOp(change: CountChange): BatchOp {
  switch (change.kind) {
    case 'cell': {
      const { hour, environment, yes, no, variants } = change.cell;
      return { type: 'put', key: keys.usageCount(hourPart(hour), change.project, change.flag, environment), value: encode({ yes, no, variants }) };
    }
    case 'cell-removed':
      return { type: 'del', key: keys.usageCount(hourPart(change.hour), change.project, change.flag, change.environment) };
    case 'seen':
      return { type: 'put', key: keys.usageSeen(change.project, change.flag), value: encode(change.seen) };
    case 'seen-removed':
      return { type: 'del', key: keys.usageSeen(change.project, change.flag) };
  }
}

/** The write of one planned change of the applications. */
export function applicationOp(change: ApplicationChange): BatchOp {
  switch (change.kind) {
    case 'app':
      return { type: 'put', key: keys.usageApp(change.app.appName), value: encode(change.app) };
    case 'app-removed':
      return { type: 'del', key: keys.usageApp(change.appName) };
    case 'instance':
      return { type: 'put', key: keys.usageInstance(change.instance.appName, change.instance.instanceId), value: encode(change.instance) };
    case 'instance-removed':
      return { type: 'del', key: keys.usageInstance(change.appName, change.instanceId) };
  }
}
