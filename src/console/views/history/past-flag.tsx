/** @jsxImportSource hono/jsx */
/** One flag of a past view, read-only: its state per environment and, expandable, its whole configuration. */
import type { Flag, Strategy, Variant } from '../../../domain/types.js';
import { constraintWords, strategyLabel } from '../../../queries/history/strategy-diff.js';

/** On or off as text beside an icon (the icon is decoration: the word says it). */
export function OnOff({ on }: { on: boolean }) {
  return (
    <span class={on ? 'state state-on' : 'state state-off'}>
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
        {on ? <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" />
          : <circle cx="8" cy="8" r="5" fill="none" stroke="currentColor" stroke-width="2" />}
      </svg>
      {on ? 'On' : 'Off'}
    </span>
  );
}

function Parameters({ parameters }: { parameters: Record<string, string> }) {
  const entries = Object.entries(parameters);
  if (entries.length === 0) return null;
  return <dl class="params">{entries.map(([key, value]) => <div><dt>{key}</dt><dd>{value === '' ? '""' : value}</dd></div>)}</dl>;
}

function StrategyItem({ strategy }: { strategy: Strategy }) {
  return (
    <li class="past-strategy">
      <p class="past-strategy-name"><strong>{strategyLabel(strategy)}</strong>{strategy.disabled ? <span class="badge">disabled</span> : null}</p>
      <Parameters parameters={strategy.parameters as Record<string, string>} />
      {strategy.constraints.length > 0
        ? <ul class="constraints" aria-label="Constraints">{strategy.constraints.map((c) => <li><code>{constraintWords(c)}</code></li>)}</ul>
        : <p class="muted small">No constraints</p>}
      {strategy.segments.length > 0 ? <p class="small">Segments: {strategy.segments.join(', ')}</p> : null}
      {strategy.variants.length > 0 ? <p class="small">Variants: {strategy.variants.map((v) => `${v.name} (${v.weight / 10}%)`).join(', ')}</p> : null}
    </li>
  );
}

function Variants({ variants }: { variants: Variant[] }) {
  if (variants.length === 0) return <p class="muted small">No variants</p>;
  return (
    <ul class="past-variants" aria-label="Variants">
      {variants.map((v) => <li><strong>{v.name}</strong> {v.weight / 10}% ({v.weightType}, stickiness {v.stickiness}){v.payload ? <> · payload {v.payload.type}: <code>{v.payload.value}</code></> : null}</li>)}
    </ul>
  );
}

/** The number of strategies of a flag over all its environments. */
export const strategyCount = (flag: Flag): number => Object.values(flag.environments).reduce((n, env) => n + env.strategies.length, 0);

/** A flag's whole configuration at that moment, behind a disclosure. */
export function PastFlagDetails({ flag, environments, historyUrl }: { flag: Flag; environments: string[]; historyUrl: string }) {
  return (
    <details class="past-details">
      <summary>Strategies and variants<span class="sr-only"> of {flag.name}</span></summary>
      <div class="past-details-body">
        {flag.description ? <p>{flag.description}</p> : null}
        {environments.map((env) => {
          const state = flag.environments[env];
          const strategies = state ? [...state.strategies].sort((a, b) => a.sortOrder - b.sortOrder) : [];
          return (
            <section class="past-env">
              <h3>{env} <OnOff on={state?.enabled ?? false} /></h3>
              {strategies.length > 0 ? <ol class="past-strategies">{strategies.map((s) => <StrategyItem strategy={s} />)}</ol> : <p class="muted small">No strategies</p>}
            </section>
          );
        })}
        <section class="past-env">
          <h3>Variants</h3>
          <Variants variants={flag.variants} />
        </section>
        {flag.tags && flag.tags.length > 0 ? <p class="small">Tags: {flag.tags.map((t) => `${t.type}:${t.value}`).join(', ')}</p> : null}
        {flag.dependencies && flag.dependencies.length > 0 ? <p class="small">Depends on: {flag.dependencies.map((d) => `${d.enabled ? '' : 'not '}${d.feature}`).join(', ')}</p> : null}
        <p class="small"><a href={historyUrl}>Changes to {flag.name} up to this moment</a></p>
      </div>
    </details>
  );
}
