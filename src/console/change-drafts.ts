/**
 * The console's writes on environments that take changes through change requests (docs/api-decisions.md "Change
 * requests"). A control sends its direct write first; when the project's mailbox refuses it for the protection
 * (the 403 naming `SKIP_CHANGE_REQUEST`: the environment is protected and the person may not skip it), the same
 * change goes to the person's draft for that environment, by the use case `POST .../change-requests` calls. The
 * rule stays the mailbox's: the page never decides whether an environment is protected before writing.
 */
import type { Principal } from '../auth/permissions.js';
import { isAllowed, principalLabel, roleIn } from '../auth/permissions.js';
import { takesChanges, type ChangeBody, type ChangeRequest } from '../domain/change-request.js';
import { protectedEnvironments } from '../domain/decide/change-request-guard.js';
import type { DomainError } from '../domain/errors.js';
import { ok, type Result } from '../domain/result.js';
import type { ProjectState } from '../domain/project-state.js';
import { addChanges } from '../use-cases/change-requests.use-cases.js';
import type { PageCall } from './page.js';

/** A write that went to the person's change request instead: the request after it, and its environment. */
export interface Drafted {
  drafted: ChangeRequest;
  environment: string;
}

/** What goes to the draft when the direct write is refused: the environment, and the changes in order. */
export interface Proposal {
  environment: string;
  changes: ChangeBody[];
}

/** Whether `error` is the protection's refusal (Unleash's 403 naming `SKIP_CHANGE_REQUEST`). */
export const isProtectedRefusal = (error: DomainError): boolean =>
  error.kind === 'PermissionError' && (error.permissions ?? []).includes('SKIP_CHANGE_REQUEST');

/** Whether a page's result is a write that went to a change request. */
export const isDrafted = (value: unknown): value is Drafted => typeof value === 'object' && value !== null && 'drafted' in value && 'environment' in value;

/**
 * Sends `write`; refused for the protection, adds `proposal()` to the caller's open request for its environment
 * (a new draft when there is none) and answers that request. Any other answer is `write`'s own.
 *
 * @example
 * await directOrDraft(call, () => archiveFlag(registry, ref, principal),
 *   () => ({ environment: firstProtected(state), changes: [{ feature, action: 'archiveFeature' }] }))
 */
export async function directOrDraft<T>(
  call: Pick<PageCall<{ projectId: string }>, 'registry' | 'principal' | 'params'>,
  write: () => Promise<Result<T>>,
  proposal: () => Proposal,
): Promise<Result<T | Drafted>> {
  const direct = await write();
  if (direct.ok || !isProtectedRefusal(direct.error)) return direct;
  const { environment, changes } = proposal();
  const added = await addChanges(call.registry, { projectId: call.params.projectId, environment, changes }, call.principal);
  return added.ok ? ok({ drafted: added.value, environment }) : added;
}

/**
 * Where a write to the whole flag (variants, archive) goes when the project protects environments: the first
 * protected one in the project's order (a request applies it to the flag as a whole).
 */
export const firstProtected = (state: ProjectState): string => protectedEnvironments(state.meta)[0] ?? '';

/** The environments of the project that take the caller's changes through requests (none for one who may skip them). */
export function protectedFor(state: ProjectState, principal: Principal): string[] {
  if (isAllowed(principal, 'SKIP_CHANGE_REQUEST', roleIn(principal, state.meta.members))) return [];
  return protectedEnvironments(state.meta);
}

/** One of the caller's requests that still takes changes (Draft, In review, Approved), as the banner names it. */
export interface OpenDraft {
  id: number;
  title: string;
  environment: string;
  state: ChangeRequest['state'];
  changes: number;
}

/** The caller's requests of the project that still take changes, newest first. */
export function openDraftsOf(state: ProjectState, principal: Principal): OpenDraft[] {
  const me = principalLabel(principal);
  const drafts: OpenDraft[] = [];
  for (const r of state.changeRequests.requests.values()) {
    if (r.createdBy === me && takesChanges(r.state)) drafts.push({ id: r.id, title: r.title, environment: r.environment, state: r.state, changes: r.changes.length });
  }
  return drafts.reverse();
}

/** The request a `?done=drafted&request=<id>` address names, when it is one of the caller's; else undefined. */
export function draftedNamed(state: ProjectState, principal: Principal, done: string | undefined, id: string | undefined): OpenDraft | undefined {
  if (done !== 'drafted' || id === undefined || !/^\d{1,9}$/.test(id)) return undefined;
  const request = state.changeRequests.requests.get(Number(id));
  if (!request || request.createdBy !== principalLabel(principal)) return undefined;
  return { id: request.id, title: request.title, environment: request.environment, state: request.state, changes: request.changes.length };
}
