/** @jsxImportSource hono/jsx */
/**
 * One environment of the flag: its switch (a button with `role="switch"` named "<flag> in <environment>"; the
 * visible On/Off beside it is not part of the name), its strategies in order, and the forms to add one or copy
 * them from another environment.
 */
import { newStrategyDraft, type StrategyDraft } from '../../forms/strategy.form.js';
import { SwitchOffer } from '../flags/switch-offer.js';
import { Csrf, FormAlert, idOf, refusedIn, When } from '../form-parts.js';
import type { FlagPageEnvironment, FlagPageModel } from './flag-model.js';
import { StrategyCard } from './strategy-card.js';
import { StrategyForm } from './strategy-form.js';

function Switch({ model, env }: { model: FlagPageModel; env: FlagPageEnvironment }) {
  const on = env.state.enabled;
  const state = <span class={on ? 'state state-on' : 'state state-off'}>{on ? 'On' : 'Off'}</span>;
  if (!model.may.toggle || model.flag.archived) return <p class="switch-readonly">{state}</p>;
  return (
    <form method="post" action={`${model.base}/environments/${encodeURIComponent(env.name)}/toggle`} class="switch-form">
      <Csrf ifMatch={model.ifMatch} />
      {on ? null : <input type="hidden" name="enabled" value="on" />}
      <button type="submit" class="switch" role="switch" aria-checked={on ? 'true' : 'false'} aria-label={`${model.flag.name} in ${env.name}`}>
        <span class="switch-knob" aria-hidden="true"></span>
      </button>
      <span aria-hidden="true">{state}</span>
    </form>
  );
}

function CopyForm({ model, env }: { model: FlagPageModel; env: FlagPageEnvironment }) {
  const others = model.environments.filter((e) => e.name !== env.name && e.state.strategies.length > 0);
  if (others.length === 0) return null;
  const id = idOf('copy', env.name);
  return (
    <form method="post" action={`${model.base}/environments/${encodeURIComponent(env.name)}/copy`} class="copy-form" aria-label={`Copy strategies to ${env.name}`}>
      <Csrf ifMatch={model.ifMatch} />
      <label for={id}>Copy strategies from</label>
      <select id={id} name="fromEnvironment">{others.map((e) => <option value={e.name}>{e.name}</option>)}</select>
      <button type="submit" class="button button-small">Copy</button>
      <FormAlert error={model.error} form={`copy:${env.name}`} />
    </form>
  );
}

/** The environment's section. */
export function EnvironmentSection({ model, env }: { model: FlagPageModel; env: FlagPageEnvironment }) {
  const id = idOf('env', env.name);
  const strategies = [...env.state.strategies].sort((a, b) => a.sortOrder - b.sortOrder);
  const addForm = `strategy:${env.name}:new`;
  const refused = refusedIn<StrategyDraft>(model.error, addForm);
  const draft = refused?.draft ?? newStrategyDraft(model.project.defaultStickiness);
  const toggle = `${model.base}/environments/${encodeURIComponent(env.name)}/toggle`;
  const offer = model.offer?.environment === env.name ? model.offer : undefined;
  const editable = !model.flag.archived;
  return (
    <section class="card env" id={id} aria-labelledby={`${id}-title`}>
      <div class="env-head">
        <div>
          <h3 id={`${id}-title`}>{env.name}</h3>
          <p class="muted env-meta">{env.type} environment · last seen <When at={env.lastSeenAt} /></p>
        </div>
        <Switch model={model} env={env} />
      </div>
      {model.protectedEnvironments?.includes(env.name) && editable && model.may.toggle
        ? <p class="hint env-protected">Changes here go through change requests: the switch and the strategy controls add them to your draft.</p>
        : null}
      <FormAlert error={model.error} form={`toggle:${env.name}`} />
      {offer ? <SwitchOffer flag={model.flag.name} offer={offer} action={toggle} ifMatch={model.ifMatch} cancel={<a class="button button-small" href={`${model.base}#${id}`}>Cancel</a>} /> : null}
      {strategies.length === 0
        ? <p class="muted">{model.project.defaultStrategies.includes(env.name)
          ? 'No strategies: switched on, the flag gets the project\'s default strategy here.'
          : 'No strategies: switching it on first offers to add a 100% rollout.'}</p>
        : <ol class="strategy-list" aria-label={`Strategies in ${env.name}`}>{strategies.map((s, index) => <StrategyCard model={model} env={env} strategy={s} index={index} count={strategies.length} />)}</ol>}
      {editable && (model.may.addStrategy) ? (
        <div class="env-tools">
          <details class="edit-panel" open={refused !== undefined}>
            <summary class="button button-small button-primary">Add strategy</summary>
            <StrategyForm model={model} form={addForm} submit={`Add strategy to ${env.name}`} draft={draft} action={`${model.base}/environments/${encodeURIComponent(env.name)}/strategies`} />
          </details>
          <CopyForm model={model} env={env} />
        </div>
      ) : null}
    </section>
  );
}
