/**
 * Versions of the machines whose values are stored (a flag's `archived`, each environment's `enabled`, a flag's `stages`).
 * Every snapshot head records them; recovery compares them with these and migrates or refuses, so a value
 * written under other rules is never read as if it were current.
 */

/** Version of the flag-environment machine. */
export const FLAG_ENVIRONMENT_MACHINE_VERSION = 1;
/** Version of the flag-lifecycle machine. */
export const FLAG_LIFECYCLE_MACHINE_VERSION = 1;

/** Version of the flag-stage machine (Unleash's lifecycle stages). */
export const FLAG_STAGE_MACHINE_VERSION = 1;

/** Version of the change-request machine (the states of a project's change requests). */
export const CHANGE_REQUEST_MACHINE_VERSION = 1;

/** The versions a project snapshot of this code records, by machine name. */
export const PROJECT_MACHINE_VERSIONS: Readonly<Record<string, number>> = Object.freeze({
  'flag-environment': FLAG_ENVIRONMENT_MACHINE_VERSION,
  'flag-lifecycle': FLAG_LIFECYCLE_MACHINE_VERSION,
  'flag-stage': FLAG_STAGE_MACHINE_VERSION,
  'change-request': CHANGE_REQUEST_MACHINE_VERSION,
});

/** Rewrites one stored item (a flag) written under `from` so it holds the values of version `from + 1`. */
export type MachineMigration = (item: unknown) => unknown;

/**
 * Migrations by machine name and the version they start from. A machine whose stored values change meaning
 * gets a new version and an entry here; a machine added later gets one from version 0 (snapshots written
 * before it record none).
 */
export const MACHINE_MIGRATIONS: Readonly<Record<string, Readonly<Record<number, MachineMigration>>>> = Object.freeze({
  // A flag stored before the stage machine has no `stages`: exactly how the machine's initial state is stored.
  'flag-stage': Object.freeze({ 0: (item: unknown) => item }),
  // A snapshot written before change requests holds none: nothing to rewrite (its items are flags).
  'change-request': Object.freeze({ 0: (item: unknown) => item }),
});

/** What to do with items stored under `stored` versions: the migrations to run in order, or why not. */
export type VersionPlan = { ok: true; migrations: MachineMigration[] } | { ok: false; reason: string };

/**
 * Plans the migration of stored machine values to the current versions. Equal versions need nothing; an
 * older version needs a migration for every step up; a newer version, an unknown machine or a missing step
 * is refused with a reason naming both versions.
 *
 * @example planMigration({ 'flag-lifecycle': 1, 'flag-environment': 1 }, PROJECT_MACHINE_VERSIONS) // { ok: true, migrations: [] }
 */
export function planMigration(stored: Readonly<Record<string, number>> | undefined, current: Readonly<Record<string, number>>, migrations = MACHINE_MIGRATIONS): VersionPlan {
  const plan: MachineMigration[] = [];
  for (const [machine, version] of Object.entries(current)) {
    // A machine the snapshot does not name is at version 0 when this code knows how to migrate from there.
    const from = stored?.[machine] ?? (migrations[machine]?.[0] ? 0 : undefined);
    if (from === undefined) return { ok: false, reason: `it records no version of the ${machine} machine (this code has version ${version})` };
    if (from > version) return { ok: false, reason: `it was written by newer code (${machine} machine version ${from}; this code has version ${version})` };
    for (let step = from; step < version; step += 1) {
      const migrate = migrations[machine]?.[step];
      if (!migrate) return { ok: false, reason: `no migration of the ${machine} machine from version ${step} to ${step + 1}` };
      plan.push(migrate);
    }
  }
  for (const machine of Object.keys(stored ?? {})) {
    if (!(machine in current)) return { ok: false, reason: `it records the ${machine} machine, which this code does not know` };
  }
  return { ok: true, migrations: plan };
}
