/**
 * A flag switched in an environment, as both switches send it (the flag table's and the flag page's): switching
 * on what nothing would serve first comes back as the offer (`switchOffer`); otherwise, or once a choice was
 * taken, one command (`flag.enable` with the offer's choice, or `flag.disable`) conditional on the version the
 * page showed. On an environment that takes the person's changes through requests, the same switch goes to their
 * draft (`change-drafts.ts`). A refusal comes back as the domain's error, for each page to word.
 */
import { noAccessMessage } from '../auth/permissions.js';
import type { ChangeBody, ChangeRequest } from '../domain/change-request.js';
import type { DomainError } from '../domain/errors.js';
import type { ProjectState } from '../domain/project-state.js';
import { switchOffer, type SwitchOffer } from '../queries/switch-offer.query.js';
import type { FeatureEnvironmentParams } from '../schemas/params.schema.js';
import type { SwitchForm } from './forms/flag-table.forms.js';
import { disableFlag, enableFlag } from '../use-cases/toggles.use-cases.js';
import { directOrDraft, isDrafted } from './change-drafts.js';
import { mayIn } from './flag-table-page.js';
import type { PageCall } from './page.js';

/** What a switch came to: done (or nothing to do), added to the person's change request, an offer to answer first, or a refusal. */
export type SwitchOutcome =
  | { kind: 'switched' }
  | { kind: 'drafted'; request: ChangeRequest; environment: string }
  | { kind: 'offer'; offer: SwitchOffer }
  | { kind: 'refused'; error: DomainError };

/**
 * The switch as changes of a request: the offer's 100% rollout first when it is taken and the project has no
 * default strategy there (with one, switching on adds it, as the direct write does).
 */
function switchChanges(state: ProjectState, p: FeatureEnvironmentParams, form: { enabled: boolean; with?: string | undefined }): ChangeBody[] {
  const feature = p.featureName;
  const toggle: ChangeBody = { feature, action: 'updateEnabled', payload: form.enabled && form.with === 'disabled' ? { enabled: true, shouldActivateDisabledStrategies: true } : { enabled: form.enabled } };
  if (!form.enabled || form.with !== 'strategy' || Object.hasOwn(state.meta.defaultStrategies, p.environment)) return [toggle];
  const rollout: ChangeBody = {
    feature, action: 'addStrategy',
    payload: { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: state.meta.defaultStickiness ?? 'default', groupId: feature }, constraints: [] },
  };
  return [rollout, toggle];
}

/**
 * Sends a switch, or answers the offer it needs first.
 *
 * @example const outcome = await sendSwitch(call); if (outcome.kind === 'offer') return rowWith(outcome.offer);
 */
export async function sendSwitch(call: PageCall<FeatureEnvironmentParams, unknown, typeof SwitchForm>): Promise<SwitchOutcome> {
  const { c, params, form, registry, principal } = call;
  const actor = call.project();
  if (form.enabled && form.with === undefined) {
    const offer = switchOffer(actor.state, params.featureName, params.environment);
    if (offer) return { kind: 'offer', offer };
  }
  // Adding the 100% rollout adds a strategy; the project's default strategy is the switch's own to add (as on the API).
  const addsRollout = form.enabled && form.with === 'strategy' && !Object.hasOwn(actor.state.meta.defaultStrategies, params.environment);
  if (addsRollout && !mayIn(c, actor, 'CREATE_FEATURE_STRATEGY')) return { kind: 'refused', error: { kind: 'NoAccessError', message: noAccessMessage('CREATE_FEATURE_STRATEGY', params.environment) } };
  const ref = { projectId: params.projectId, featureName: params.featureName, environment: params.environment, ifMatch: call.ifMatch };
  const sent = await directOrDraft(call, () => (form.enabled
    ? enableFlag(registry, { ...ref, activateDisabled: form.with === 'disabled', rolloutWithoutDefault: form.with === 'strategy' }, principal)
    : disableFlag(registry, ref, principal)), () => ({ environment: params.environment, changes: switchChanges(actor.state, params, form) }));
  if (!sent.ok) return { kind: 'refused', error: sent.error };
  return isDrafted(sent.value) ? { kind: 'drafted', request: sent.value.drafted, environment: sent.value.environment } : { kind: 'switched' };
}
