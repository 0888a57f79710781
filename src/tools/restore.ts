import * as v from 'valibot';
import { DUMP_FORMAT } from '../../snapshots/dump-format.js';
import type { StoreLocation } from '../../snapshots/open-store.js';
import { RestoreError, writeImages, type ScopeImage } from '../../snapshots/restore-writer.js';
import { PROJECT_MACHINES } from '../actors/project-model.js';
import { REPLAY_ONLY, serviceModel } from '../actors/service-model.js';
import type { Dump } from '../actors/state-dump.js';
import type { ServiceState } from '../domain/service-state.js';
import { MASKED_VALUE, type Addon } from '../domain/addons/addon.js';

export { RestoreError } from '../../snapshots/restore-writer.js';

const Seq = v.pipe(v.number(), v.safeInteger(), v.minValue(1));
const AnyObject = v.record(v.string(), v.unknown());
/** A dumped token: enough to tell the operator which tokens to re-create (older dumps also held hashes). */
const DumpedTokenSchema = v.looseObject({ tokenName: v.string(), type: v.string(), userId: v.optional(v.nullable(v.number())) });
const StrategySegments = v.looseObject({ segments: v.optional(v.array(v.number())) });

/**
 * The envelope of a full dump. The states inside are checked for shape only where restore relies on them
 * (ids, names, sequence numbers); their content was produced by the service and is restored as it is.
 */
const DumpSchema = v.object({
  format: v.literal(DUMP_FORMAT),
  service: v.object({
    seq: Seq,
    state: v.object({
      environments: v.array(AnyObject), users: AnyObject, nextUserId: v.number(), tokens: v.record(v.string(), DumpedTokenSchema),
      // Absent in dumps made before segments existed.
      segments: v.optional(v.record(v.string(), v.looseObject({ id: Seq, project: v.nullable(v.string()) }))),
      nextSegmentId: v.optional(Seq),
      // Absent in dumps made before tag types existed.
      tagTypes: v.optional(v.array(AnyObject)),
      // Absent in dumps made before context fields and strategy definitions existed.
      contextFields: v.optional(v.array(AnyObject)),
      strategyDefinitions: v.optional(v.array(AnyObject)),
    }),
  }),
  projects: v.array(v.object({
    id: v.string(),
    seq: Seq,
    meta: v.looseObject({ id: v.string(), createdAt: v.string(), defaultStrategies: v.optional(v.record(v.string(), StrategySegments)) }),
    flags: v.array(v.looseObject({ name: v.string(), environments: v.record(v.string(), v.looseObject({ strategies: v.array(StrategySegments) })) })),
  })),
});

/**
 * Parses and checks a dump document: a full dump (with the service part), projects unique, each project's
 * meta naming it, flag names unique within a project, every segment a strategy names in the dump and usable
 * by that strategy's project.
 */
export function parseDump(text: string): Dump {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RestoreError(`the dump is not JSON: ${(error as Error).message}`);
  }
  return checkDump(raw);
}

/**
 * Checks a parsed dump document (or a backup assembled into one): its shape, projects unique, each project's
 * meta naming it, flag names unique within a project, every segment a strategy names in the dump and usable
 * by that strategy's project.
 */
export function checkDump(raw: unknown): Dump {
  if (typeof raw === 'object' && raw !== null && !('service' in raw)) {
    throw new RestoreError('the dump has no service part: restore needs a full dump (made without --project or --at)');
  }
  const result = v.safeParse(DumpSchema, raw);
  if (!result.success) {
    const issue = result.issues[0];
    throw new RestoreError(`the dump is not a flagpole dump of format ${DUMP_FORMAT}: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  const segments = result.output.service.state.segments ?? {};
  const ids = new Set<string>();
  for (const project of result.output.projects) {
    if (ids.has(project.id)) throw new RestoreError(`project "${project.id}" appears twice`);
    ids.add(project.id);
    if (project.meta.id !== project.id) throw new RestoreError(`project "${project.id}" has meta.id "${project.meta.id}"`);
    for (const [environment, strategy] of Object.entries(project.meta.defaultStrategies ?? {})) checkSegments(segments, project.id, strategy.segments, `the default strategy of ${environment}`);
    const names = new Set<string>();
    for (const flag of project.flags) {
      if (names.has(flag.name)) throw new RestoreError(`project "${project.id}" has flag "${flag.name}" twice`);
      names.add(flag.name);
      for (const [environment, entry] of Object.entries(flag.environments)) {
        for (const strategy of entry.strategies) checkSegments(segments, project.id, strategy.segments, `flag "${flag.name}" in ${environment}`);
      }
    }
  }
  return raw as Dump;
}

/** Refuses a strategy naming a segment the dump lacks, or one of another project: restored, it would dangle. */
function checkSegments(segments: Record<string, { project: string | null }>, project: string, ids: number[] | undefined, where: string): void {
  for (const id of ids ?? []) {
    const segment = Object.hasOwn(segments, String(id)) ? segments[String(id)] : undefined;
    if (!segment) throw new RestoreError(`project "${project}": ${where} uses segment ${id}, which the dump does not hold`);
    if (segment.project !== null && segment.project !== project) throw new RestoreError(`project "${project}": ${where} uses segment ${id} of project "${segment.project}"`);
  }
}

/** A token of the dump that was not restored, to be re-created by the operator. */
export interface DroppedToken {
  tokenName: string;
  type: string;
  /** For a personal token: whose it was. */
  userId: number | null;
}

/** How to restore. */
export interface RestoreOptions {
  /**
   * The dump is a backup (`src/tools/restore-backup.ts`) whose service state holds the stored tokens, hashes
   * included: restore them as they are (they authenticate under the same token key).
   */
  keepTokens?: boolean;
  /** Called after each scope is written (the service, then each project) with its items (flags), for a progress bar. */
  onScope?: (items: number) => void;
}

/** An addon of a dump restored without its secrets (a dump masks them), and disabled until they are set again. */
export interface DisabledAddon {
  id: number;
  provider: string;
  /** The masked parameters left out, to set again (`PUT /api/admin/addons/:id`). */
  parameters: string[];
}

/** What a restore wrote, and the tokens and addon secrets it left out. */
export interface RestoreSummary {
  projects: number;
  flags: number;
  /** Every token of the dump: none is restored (a dump carries no hash, so none could ever authenticate). */
  droppedTokens: DroppedToken[];
  /** Addons whose secrets the dump masked: restored disabled, without them. */
  disabledAddons: DisabledAddon[];
}

/** A dump's addons without their masked parameters; those that had any are disabled and listed. */
function addonsWithoutMasks(addons: Record<string, Addon> | undefined): { addons?: Record<string, Addon>; disabled: DisabledAddon[] } {
  if (addons === undefined) return { disabled: [] };
  const disabled: DisabledAddon[] = [];
  const out: Record<string, Addon> = {};
  for (const [key, addon] of Object.entries(addons)) {
    const dropped = Object.keys(addon.parameters).filter((name) => addon.parameters[name] === MASKED_VALUE);
    const parameters = Object.fromEntries(Object.entries(addon.parameters).filter(([name]) => !dropped.includes(name)));
    out[key] = dropped.length === 0 ? addon : { ...addon, parameters, enabled: false };
    if (dropped.length > 0) disabled.push({ id: addon.id, provider: addon.provider, parameters: dropped });
  }
  return { addons: out, disabled };
}

/**
 * Loads a full dump into an empty (or missing) data directory, or an empty database: one snapshot per scope at the dumped
 * sequence number, recording the machine versions of this code, plus each project's registration key.
 * Starting the service on it recovers exactly the dumped state except tokens, and new commands continue the
 * sequence (so flag versions and ETags stay monotonic).
 *
 * Tokens are never restored: a dump holds no token hash (and older dumps held unkeyed ones, which a restore
 * would bring back), so a restored token could never authenticate. They are listed in the summary, to be
 * re-created; with no token stored, the first start stores `INIT_ADMIN_API_TOKENS` or prints a new admin token.
 */
export async function restoreDump(target: string | StoreLocation, dump: Dump, options: RestoreOptions = {}): Promise<RestoreSummary> {
  if (!dump.service) throw new RestoreError('the dump has no service part: restore needs a full dump');
  const service = serviceModel(REPLAY_ONLY);
  const droppedTokens = options.keepTokens ? [] : Object.values(dump.service.state.tokens)
    .map((t): DroppedToken => ({ tokenName: t.tokenName, type: t.type, userId: t.userId ?? null }))
    .sort((a, b) => a.tokenName.localeCompare(b.tokenName));
  const dumped = dump.service.state as unknown as ServiceState;
  const { addons, disabled: disabledAddons } = options.keepTokens ? { addons: dumped.addons, disabled: [] } : addonsWithoutMasks(dumped.addons);
  const state: ServiceState = options.keepTokens ? dumped : { ...dumped, tokens: {}, passwords: {}, ...(addons === undefined ? {} : { addons }) };
  const images: ScopeImage[] = [
    { scope: service.scope, seq: dump.service.seq, machines: service.machines, meta: state, items: [] },
    ...dump.projects.map((p) => ({ scope: { project: p.id }, seq: p.seq, machines: PROJECT_MACHINES, meta: p.meta, items: p.flags })),
  ];
  await writeImages(typeof target === 'string' ? { dataDir: target } : target, images, dump.projects.map((p) => ({ id: p.id, createdAt: p.meta.createdAt })), options.onScope);
  return { projects: dump.projects.length, flags: dump.projects.reduce((n, p) => n + p.flags.length, 0), droppedTokens, disabledAddons };
}
