/**
 * A flag's lifecycle (docs/api-decisions.md "Feature lifecycle"): completing and reopening it, and noting the
 * stages SDK reports move flags into. Each is a command to the project's mailbox, recorded in its log.
 */
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { IfMatch } from '../domain/commands.js';
import { entersStages } from '../domain/flag-stages.js';
import type { Result } from '../domain/result.js';
import type { CompletionStatus } from '../domain/types.js';
import type { CountReport } from '../domain/usage-records.js';
import { sendToFlag, sendToProject } from './send-command.js';

/** The flag a lifecycle command addresses, and the version the caller last saw (`If-Match`). */
export interface FlagRef {
  projectId: string;
  featureName: string;
  ifMatch?: IfMatch;
}

/**
 * `POST .../lifecycle/complete`: marks the flag completed; the result carries its version after it.
 *
 * @example await completeFlag(registry, { projectId: 'default', featureName: 'checkout', status: 'kept', statusValue: 'blue' }, principal);
 */
export function completeFlag(registry: Registry, input: FlagRef & { status: CompletionStatus; statusValue?: string | undefined }, principal: Principal): Promise<Result<null>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.complete', feature: input.featureName, status: input.status, statusValue: input.statusValue, ifMatch: input.ifMatch }, principal);
}

/** `POST .../lifecycle/uncomplete`: the flag is no longer completed; the result carries its version after it. */
export function uncompleteFlag(registry: Registry, input: FlagRef, principal: Principal): Promise<Result<null>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.uncomplete', feature: input.featureName, ifMatch: input.ifMatch }, principal);
}

/**
 * After a metrics post from `environment`: asks each project whose reported flags enter a lifecycle stage
 * to record it, and waits until it has (so a read after the post's answer shows the stage). Most posts report
 * flags that enter none, send nothing and wait for nothing. A command that fails fails no post: the next
 * report of that flag sends it again, since the committed state still says it has not entered the stage.
 */
export async function noteSeenStages(registry: Registry, counts: readonly CountReport[], environment: string, principal: Principal): Promise<void> {
  const env = registry.service.state.environments.find((e) => e.name === environment);
  // Unleash moves no stage on reports from an environment it does not know.
  if (!env) return;
  const production = env.type === 'production';
  const byProject = new Map<string, string[]>();
  for (const { project, flag: name } of counts) {
    const flag = registry.project(project)?.state.flags.get(name);
    if (!flag || entersStages(flag, environment, production).length === 0) continue;
    let names = byProject.get(project);
    if (!names) byProject.set(project, (names = []));
    names.push(name);
  }
  const sent = [...byProject].map(([project, features]) =>
    sendToProject(registry, project, { type: 'flags.note-seen', features, environment, production }, principal).catch(() => undefined));
  if (sent.length > 0) await Promise.all(sent);
}
