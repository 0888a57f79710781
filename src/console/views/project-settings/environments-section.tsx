/** @jsxImportSource hono/jsx */
/**
 * The project's environments: each connected one with its default strategy (what a flag gets when switched
 * on there without a strategy), edited with the flag page's strategy form; disconnect after a confirmation
 * naming what goes; connect another enabled environment.
 */
import type { ProjectEnvironment } from '../../../queries/environments.query.js';
import { draftOf, newStrategyDraft, type StrategyDraft } from '../../forms/strategy.form.js';
import { Csrf, FormAlert, idOf, PostButton, refusedIn } from '../form-parts.js';
import { StrategyForm } from '../flag/strategy-form.js';
import type { SettingsModel } from './settings-model.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function DefaultStrategy({ env }: { env: ProjectEnvironment }) {
  const s = env.defaultStrategy;
  if (!s) return <p class="muted">Default strategy: not set (a gradual rollout to 100%).</p>;
  const params = s.parameters ?? {};
  const words = s.name === 'flexibleRollout'
    ? `a gradual rollout to ${params['rollout'] ?? '100'}%, stickiness ${params['stickiness'] ?? 'default'}${params['groupId'] ? `, group ${params['groupId']}` : ''}`
    : s.name;
  const extras = [(s.constraints ?? []).length > 0 ? plural((s.constraints ?? []).length, 'constraint') : '', (s.segments ?? []).length > 0 ? plural((s.segments ?? []).length, 'segment') : ''].filter(Boolean).join(', ');
  return <p>Default strategy: <strong>{s.title || words}</strong>{extras ? <span class="muted">{` · ${extras}`}</span> : null}</p>;
}

function Connected({ model, env }: { model: SettingsModel; env: ProjectEnvironment }) {
  const form = `default:${env.name}`;
  const refused = refusedIn<StrategyDraft>(model.error, form);
  const draft = refused?.draft ?? (env.defaultStrategy ? draftOf(env.defaultStrategy) : newStrategyDraft());
  const id = idOf('project-env', env.name);
  return (
    <li class="settings-env" id={id}>
      <div class="settings-env-head">
        <h3>{env.name} <span class="muted small">{`${env.type}${env.enabled ? '' : ', turned off'}`}</span></h3>
        <p class="muted small">{`${plural(env.projectEnabledToggleCount, 'flag')} on · ${plural(env.projectApiTokenCount, 'API token')}`}</p>
      </div>
      <DefaultStrategy env={env} />
      <FormAlert error={model.error} form={`disconnect:${env.name}`} />
      {model.may.update ? (
        <div class="env-tools">
          <details class="edit-panel" open={refused !== undefined}>
            <summary class="button button-small">Edit default strategy<span class="sr-only">{` in ${env.name}`}</span></summary>
            <StrategyForm model={model} form={form} draft={draft} submit={`Save default strategy for ${env.name}`} action={`${model.base}/environments/${encodeURIComponent(env.name)}/default-strategy`} />
          </details>
          <details class="confirm">
            <summary class="button button-small button-danger-outline"><span>Disconnect<span class="sr-only">{` ${env.name}`}</span>…</span></summary>
            <div class="confirm-panel" role="group" aria-label={`Disconnect ${env.name}`}>
              <p>{`Disconnect ${env.name} from ${model.project.name}? The settings of all ${plural(model.project.activeFlags + model.project.archivedFlags, 'flag')} there — on or off, strategies, default strategy — are removed. Connecting it again starts them off.`}</p>
              <PostButton action={`${model.base}/environments/${encodeURIComponent(env.name)}/disconnect`} class="button button-danger" label={`Disconnect ${env.name}`} />
            </div>
          </details>
        </div>
      ) : null}
    </li>
  );
}

function Connect({ model }: { model: SettingsModel }) {
  const offered = model.environments.filter((e) => !e.visible && e.enabled);
  if (offered.length === 0) return <p class="muted small">Every enabled environment is connected.</p>;
  return (
    <form method="post" action={`${model.base}/environments`} class="copy-form connect-form" aria-label="Connect an environment">
      <Csrf />
      <label for="connect-environment">Connect an environment</label>
      <select id="connect-environment" name="environment">{offered.map((e) => <option value={e.name}>{e.name}</option>)}</select>
      <button type="submit" class="button button-small button-primary">Connect</button>
      <FormAlert error={model.error} form="connect" />
    </form>
  );
}

/** The environments section. */
export function EnvironmentsSection({ model }: { model: SettingsModel }) {
  const connected = model.environments.filter((e) => e.visible);
  return (
    <section class="card settings-section" id="environments" aria-labelledby="environments-title">
      <h2 id="environments-title" class="section-title">Environments</h2>
      <ul class="settings-env-list" role="list">{connected.map((env) => <Connected model={model} env={env} />)}</ul>
      {model.may.update ? <Connect model={model} /> : null}
    </section>
  );
}
