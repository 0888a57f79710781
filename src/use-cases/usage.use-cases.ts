/**
 * SDK usage: registrations and metrics posts. Neither goes through a project's mailbox: the counts are
 * noted by the usage actor and written with its next flush (`src/actors/usage-actor.ts`), so they never
 * move a flag's version, never make a conditional write fail and never wait behind one. The one exception is
 * the first report that moves a flag into a lifecycle stage (`noteSeenStages`): that post waits for a command
 * to its project, which moves no version either.
 */
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { ClientSighting } from '../domain/client-applications.js';
import { fail } from '../domain/errors.js';
import type { CountReport } from '../domain/usage-records.js';
import type { ClientMetricsBody, ClientRegisterBody } from '../schemas/metrics.schema.js';
import { failed, ok, type Result } from '../domain/result.js';
import { noteSeenStages } from './lifecycle.use-cases.js';

/** Where an SDK's usage counts: the projects its token reads and the environment it reports for. */
interface UsageScope {
  /** The token's projects as granted (`*` for all), as an application's `usage` lists them. */
  granted: readonly string[];
  /** The existing projects those are. */
  projects: readonly string[];
  environment: string;
}

/**
 * A client token counts in its own environment and projects. An admin token (every environment, as Unleash's
 * `*`) counts in the body's `environment` when it names one of the service's environments, else in
 * `default`, and in every project.
 */
function scopeOf(registry: Registry, principal: Principal, bodyEnvironment: string | null): Result<UsageScope> {
  if (principal.kind === 'client' || principal.kind === 'frontend') {
    const all = principal.projects.includes('*');
    const projects = all ? registry.projectIds() : principal.projects.filter((id) => registry.project(id) !== undefined);
    return ok({ granted: principal.projects, projects, environment: principal.environment });
  }
  if (principal.kind === 'admin') {
    const known = bodyEnvironment !== null && registry.service.state.environments.some((e) => e.name === bodyEnvironment);
    return ok({ granted: ['*'], projects: registry.projectIds(), environment: known ? bodyEnvironment : 'default' });
  }
  return failed(fail('NoAccessError', 'The client API takes client or admin API tokens'));
}

/** What the caller says about where it runs. */
export interface ClientOrigin {
  /** The peer address of the connection, when there is one. */
  clientIp: string | null;
}

/**
 * `POST /api/client/metrics`: counts each reported flag that exists in the token's projects (flags of the
 * same name in several of them each count); names that are no flag there are not kept, and flags with
 * neither a yes nor a no are skipped, as Unleash does. Also notes the instance as seen.
 */
export async function recordMetrics(registry: Registry, input: { body: ClientMetricsBody } & ClientOrigin, principal: Principal): Promise<Result<void>> {
  const { body } = input;
  const scope = scopeOf(registry, principal, body.environment);
  if (!scope.ok) return scope;
  const { projects, environment, granted } = scope.value;
  const states = projects.map((id) => registry.project(id)).filter((actor) => actor !== undefined).map((actor) => actor.state);
  const toggles = body.bucket.toggles;
  const reported = Object.keys(toggles).filter((flag) => toggles[flag]!.yes > 0 || toggles[flag]!.no > 0);
  const counts: CountReport[] = [];
  const count = (project: string, flag: string) => {
    const { yes, no, variants } = toggles[flag]!;
    counts.push({ project, flag, yes, no, variants });
  };
  // Each project is matched from its smaller side: 10,000 names against a project of 50 flags costs 50 lookups.
  for (const state of states) {
    if (state.flags.size < reported.length) {
      for (const flag of state.flags.keys()) if (Object.hasOwn(toggles, flag) && (toggles[flag]!.yes > 0 || toggles[flag]!.no > 0)) count(state.meta.id, flag);
    } else {
      for (const flag of reported) if (state.flags.has(flag)) count(state.meta.id, flag);
    }
  }
  const at = Date.now();
  registry.usage.recordMetrics({ sighting: sighting(body, granted, environment, input.clientIp, at), at, stop: body.bucket.stop, counts });
  await noteSeenStages(registry, counts, environment, principal);
  return ok(undefined);
}

/** `POST /api/client/register`: notes the application (with its strategies) and the instance. */
export async function registerClient(registry: Registry, input: { body: ClientRegisterBody } & ClientOrigin, principal: Principal): Promise<Result<void>> {
  const scope = scopeOf(registry, principal, input.body.environment);
  if (!scope.ok) return scope;
  const { granted, environment } = scope.value;
  registry.usage.recordRegistration({ ...sighting(input.body, granted, environment, input.clientIp, Date.now()), strategies: input.body.strategies });
  return ok(undefined);
}

function sighting(body: { appName: string; instanceId: string; sdkVersion: string | null }, projects: readonly string[], environment: string, clientIp: string | null, at: number): ClientSighting {
  return { appName: body.appName, instanceId: body.instanceId, sdkVersion: body.sdkVersion, clientIp, environment, projects, at: new Date(at).toISOString() };
}
