/** @jsxImportSource hono/jsx */
/**
 * One strategy of an environment as read: title and type, its parameters (the rollout as a bar with its
 * figure), constraints in words, segments and strategy variants; then, for those who may, move, disable,
 * edit and delete (after a confirmation naming it).
 */
import type { Strategy } from '../../../domain/types.js';
import { OPERATOR_LABELS, takesList } from '../../forms/constraints.form.js';
import { draftOf, type StrategyDraft } from '../../forms/strategy.form.js';
import { FormAlert, idOf, PostButton, refusedIn } from '../form-parts.js';
import type { FlagPageEnvironment, FlagPageModel } from './flag-model.js';
import { StrategyForm } from './strategy-form.js';

interface CardProps {
  model: FlagPageModel;
  env: FlagPageEnvironment;
  strategy: Strategy;
  index: number;
  count: number;
}

/** What people call a strategy: its title, else its type's title. */
export function strategyLabel(model: FlagPageModel, strategy: Strategy): string {
  return strategy.title || model.strategyTypes.find((s) => s.name === strategy.name)?.title || strategy.name;
}

function Parameters({ strategy }: { strategy: Strategy }) {
  const params = strategy.parameters;
  if (strategy.name === 'flexibleRollout') {
    const rollout = Number(params['rollout'] ?? '100');
    return (
      <div class="rollout-view">
        <span class="rollout-figure">{rollout}%</span>
        <progress class="bar" max={100} value={rollout} aria-hidden="true"></progress>
        <span class="muted">stickiness {params['stickiness'] ?? 'default'}{params['groupId'] ? <>, group <code>{params['groupId']}</code></> : null}</span>
      </div>
    );
  }
  const entries = Object.entries(params);
  if (entries.length === 0) return null;
  return <dl class="params">{entries.map(([k, val]) => <div><dt>{k}</dt><dd>{val}</dd></div>)}</dl>;
}

function Constraints({ strategy }: { strategy: Strategy }) {
  if (strategy.constraints.length === 0) return null;
  return (
    <ul class="constraint-list" aria-label="Constraints">
      {strategy.constraints.map((c) => {
        const values = takesList(c.operator) ? (c.values ?? []) : [c.value ?? ''];
        return (
          <li>
            <code>{c.contextName}</code> {c.inverted ? <strong>NOT </strong> : null}{OPERATOR_LABELS[c.operator]} {values.map((value) => <span class="chip">{value}</span>)}
            {c.caseInsensitive ? <span class="muted"> (case-insensitive)</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

function Variants({ strategy }: { strategy: Strategy }) {
  if (strategy.variants.length === 0) return null;
  return (
    <div class="table-wrap">
      <table class="mini-table">
        <caption>Strategy variants</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Weight</th><th scope="col">Stickiness</th><th scope="col">Payload</th></tr></thead>
        <tbody>{strategy.variants.map((v) => <tr><td>{v.name}</td><td>{(v.weight / 10).toFixed(1)}%</td><td>{v.stickiness}</td><td>{v.payload ? `${v.payload.type}: ${v.payload.value}` : '—'}</td></tr>)}</tbody>
      </table>
    </div>
  );
}

function Actions({ model, env, strategy, index, count }: CardProps) {
  const { may } = model;
  const base = `${model.base}/environments/${encodeURIComponent(env.name)}/strategies/${encodeURIComponent(strategy.id)}`;
  const label = strategyLabel(model, strategy);
  return (
    <div class="strategy-actions">
      {may.editStrategy && index > 0 ? <PostButton action={`${base}/move`} ifMatch={model.ifMatch} fields={{ direction: 'up' }} label="↑" ariaLabel={`Move ${label} up`} /> : null}
      {may.editStrategy && index < count - 1 ? <PostButton action={`${base}/move`} ifMatch={model.ifMatch} fields={{ direction: 'down' }} label="↓" ariaLabel={`Move ${label} down`} /> : null}
      {may.editStrategy ? <PostButton action={`${base}/${strategy.disabled ? 'enable' : 'disable'}`} ifMatch={model.ifMatch} label={strategy.disabled ? 'Enable' : 'Disable'} ariaLabel={`${strategy.disabled ? 'Enable' : 'Disable'} ${label}`} /> : null}
      {may.deleteStrategy ? (
        <details class="confirm">
          <summary class="button button-small button-danger-outline" aria-label={`Delete ${label}…`}>Delete…</summary>
          <div class="confirm-panel confirm-right">
            <p>Delete the strategy "{label}" from {env.name}?</p>
            <PostButton action={`${base}/delete`} ifMatch={model.ifMatch} class="button button-danger" label={`Delete ${label}`} />
          </div>
        </details>
      ) : null}
    </div>
  );
}

/** The strategy card. */
export function StrategyCard(props: CardProps) {
  const { model, env, strategy, index } = props;
  const form = `strategy:${env.name}:${strategy.id}`;
  const refused = refusedIn<StrategyDraft>(model.error, form);
  const label = strategyLabel(model, strategy);
  const headingId = idOf('strategy', env.name, strategy.id);
  return (
    <li class={strategy.disabled ? 'strategy strategy-disabled' : 'strategy'} aria-labelledby={headingId}>
      <div class="strategy-head">
        <span class="order" aria-hidden="true">{index + 1}</span>
        <h4 id={headingId}>{label}</h4>
        {strategy.title ? <code class="muted">{strategy.name}</code> : null}
        {strategy.disabled ? <span class="badge">Disabled</span> : null}
        {model.flag.archived ? null : <Actions {...props} />}
      </div>
      <FormAlert error={model.error} form={`strategy-action:${env.name}:${strategy.id}`} />
      <Parameters strategy={strategy} />
      <Constraints strategy={strategy} />
      {strategy.segments.length > 0 ? <p class="segment-line">Segments: {strategy.segments.map((id) => <span class="chip">{model.segments.find((s) => s.id === id)?.name ?? `#${id}`}</span>)}</p> : null}
      <Variants strategy={strategy} />
      {model.may.editStrategy && !model.flag.archived ? (
        <details class="edit-panel" open={refused !== undefined}>
          <summary class="button button-small">Edit {label}</summary>
          <StrategyForm model={model} form={form} submit="Save strategy" draft={refused?.draft ?? draftOf(strategy)}
            action={`${model.base}/environments/${encodeURIComponent(env.name)}/strategies/${encodeURIComponent(strategy.id)}`} />
        </details>
      ) : null}
    </li>
  );
}
