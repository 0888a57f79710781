/** @jsxImportSource hono/jsx */
/**
 * One flag's result in the playground: on or off (in words, never colour alone) and its variant in each chosen
 * environment, a one-line reason, and on opening the whole why: every strategy with its result, each constraint
 * met or not with the value the context gave, each segment with its constraints.
 */
import type { ConstraintExplanation, ExplainedResult, FlagExplanation, SegmentExplanation, StrategyExplanation } from '../../../domain/evaluation/index.js';
import type { RequestContext } from '../../../schemas/frontend.schema.js';
import type { FlagResult } from '../../playground-results.js';
import { OPERATOR_LABELS, takesList } from '../../forms/constraints.form.js';
import { flagUrl } from '../flags/flag-urls.js';
import { idOf } from '../form-parts.js';

/** On, off or unknown, as a mark with its word. */
export function Outcome({ result }: { result: ExplainedResult }) {
  if (result === 'unknown') return <span class="pg-outcome pg-unknown">? Unknown</span>;
  return result ? <span class="pg-outcome pg-on">✓ On</span> : <span class="pg-outcome pg-off">✗ Off</span>;
}

/** Whether a check passed, in words. */
function Met({ met }: { met: boolean }) {
  return met ? <span class="pg-met">✓ met</span> : <span class="pg-unmet">✗ not met</span>;
}

/** What the context gave for a field (the engine reads `currentTime` as now when it is absent). */
function contextValue(context: RequestContext, name: string): string | undefined {
  switch (name) {
    case 'userId': case 'sessionId': case 'remoteAddress': case 'environment': case 'appName': return context[name];
    case 'currentTime': return context.currentTime ?? 'now';
    default: return Object.hasOwn(context.properties, name) ? context.properties[name] : undefined;
  }
}

function ConstraintLine({ c, context }: { c: ConstraintExplanation; context: RequestContext }) {
  const label = OPERATOR_LABELS[c.operator as keyof typeof OPERATOR_LABELS] ?? c.operator;
  const values = takesList(c.operator) ? (c.values ?? []) : c.value === undefined ? [] : [c.value];
  const given = contextValue(context, c.contextName);
  return (
    <li class={c.result ? 'pg-check pg-check-met' : 'pg-check pg-check-unmet'}>
      <Met met={c.result} />{' '}
      <code>{c.contextName}</code> {c.inverted ? 'NOT ' : ''}{label}{' '}
      {values.map((value) => <code class="chip">{value}</code>)}
      {c.caseInsensitive ? <span class="muted"> (any case)</span> : null}
      <span class="pg-given"> — the context gives {given === undefined ? <em>nothing</em> : <code>{given}</code>}</span>
    </li>
  );
}

function Segment({ s, context }: { s: SegmentExplanation; context: RequestContext }) {
  return (
    <li class="pg-check">
      <Met met={s.result} /> segment <strong>{s.name === '' ? `#${s.id} (unknown)` : s.name}</strong>
      {s.constraints.length > 0 ? <ul class="pg-checks">{s.constraints.map((c) => <ConstraintLine c={c} context={context} />)}</ul> : null}
    </li>
  );
}

/** Why a strategy came out as it did, when its checks alone do not say it. */
function strategyNote(s: StrategyExplanation): string | undefined {
  if (s.disabled) return 'Disabled: not evaluated.';
  if (s.result.evaluationStatus === 'incomplete') return 'flagpole cannot evaluate this strategy itself (SDKs implement it): its result is unknown here.';
  const checks = s.constraints.every((c) => c.result) && s.segments.every((g) => g.result);
  if (checks && s.result.enabled === false) return s.name === 'flexibleRollout' ? `Constraints met, but this context falls outside the ${s.parameters['rollout'] ?? '0'}% rollout.` : 'Constraints met, but the strategy itself is off for this context.';
  return undefined;
}

function StrategyWhy({ s, index, context }: { s: StrategyExplanation; index: number; context: RequestContext }) {
  const note = strategyNote(s);
  const params = Object.entries(s.parameters).filter(([, value]) => value !== '');
  return (
    <li class="pg-strategy">
      <p class="pg-strategy-head">
        <Outcome result={s.disabled ? 'unknown' : s.result.enabled} /> <strong>{index + 1}. {s.title ?? s.name}</strong>
        {s.title ? <code class="muted"> {s.name}</code> : null}
        {s.result.evaluationStatus === 'complete' && s.result.variant ? <> · variant <code class="chip">{s.result.variant.name}</code></> : null}
      </p>
      {params.length > 0 ? <p class="pg-params small muted">{params.map(([key, value]) => `${key}: ${value}`).join(' · ')}</p> : null}
      {s.constraints.length + s.segments.length > 0 ? (
        <ul class="pg-checks">
          {s.constraints.map((c) => <ConstraintLine c={c} context={context} />)}
          {s.segments.map((g) => <Segment s={g} context={context} />)}
        </ul>
      ) : <p class="small muted">No constraints: everyone passes.</p>}
      {note ? <p class="small pg-note">{note}</p> : null}
    </li>
  );
}

/** The one-line reason for a flag's result in an environment. */
export function reasonOf(e: FlagExplanation, environment: string): string {
  if (!e.isEnabledInCurrentEnvironment) return `Switched off in ${environment}.`;
  if (e.hasUnsatisfiedDependency) return 'A parent flag it depends on does not have the state it needs.';
  const strategies = e.strategies.data;
  if (strategies.length === 0) return 'On with no strategy: on for everyone.';
  const winner = strategies.findIndex((s) => !s.disabled && s.result.enabled === true);
  if (winner >= 0) return `Strategy ${winner + 1} (${strategies[winner]!.title ?? strategies[winner]!.name}) matched.`;
  return e.strategies.result === 'unknown' ? 'No strategy matched that flagpole can evaluate; one it cannot may.' : 'No strategy matched this context.';
}

function EnvironmentResult({ flag, environment, e, context, open }: { flag: FlagResult; environment: string; e: FlagExplanation; context: RequestContext; open: boolean }) {
  const variant = e.variant.enabled ? e.variant : undefined;
  return (
    <details class="pg-env" open={open} id={idOf('pg', flag.projectId, flag.name, environment)}>
      <summary>
        <span class="pg-env-name">{environment}</span>
        <Outcome result={e.isEnabled} />
        {variant ? <span class="pg-variant">variant <code class="chip">{variant.name}</code></span> : null}
        <span class="pg-reason">{reasonOf(e, environment)}</span>
      </summary>
      <div class="pg-why">
        {variant?.payload ? <p class="small">Payload ({variant.payload.type}): <code>{variant.payload.value}</code></p> : null}
        {e.strategies.data.length > 0 ? <ol class="pg-strategies">{e.strategies.data.map((s, index) => <StrategyWhy s={s} index={index} context={context} />)}</ol> : null}
      </div>
    </details>
  );
}

/** A flag's card: its name and project, then its result in each chosen environment. */
export function FlagResultCard({ flag, environments, context, projectName, open }: { flag: FlagResult; environments: string[]; context: RequestContext; projectName: string; open: boolean }) {
  return (
    <li class="card pg-flag">
      <div class="pg-flag-head">
        <h3 class="pg-flag-name"><a href={flagUrl(flag.projectId, flag.name)}>{flag.name}</a></h3>
        <span class="muted small">{projectName}</span>
      </div>
      {environments.map((environment) => {
        const e = flag.environments.get(environment);
        return e ? <EnvironmentResult flag={flag} environment={environment} e={e} context={context} open={open} /> : null;
      })}
    </li>
  );
}
