/** @jsxImportSource hono/jsx */
/**
 * Add or edit one strategy: type, title, rollout (a number with a slider beside it), stickiness and group, the
 * disabled mark, its constraints (every operator of the contract; one empty row adds a constraint) and its
 * segments and its variants. Field names are the API body's paths, so the API's message lands next to its field.
 */
import type { StrategyDraft } from '../../forms/strategy.form.js';
import { ConstraintEditor, Options } from './constraint-editor.js';
import { Csrf, errorAttrs, FieldError, FormAlert, idOf } from '../form-parts.js';
import type { FlagPageModel } from './flag-model.js';
import { VariantRow } from './variant-row.js';

const STICKINESS = ['default', 'userId', 'sessionId', 'random'];

/** What the strategy form reads of its page (the flag page, a project's default strategies); `ifMatch` only on a flag's page. */
export type StrategyFormModel = Pick<FlagPageModel, 'error' | 'segments' | 'contextFields' | 'strategyTypes'> & { ifMatch?: string | undefined };

interface FormProps {
  model: StrategyFormModel;
  /** `strategy:<env>:<id|new>`: which form a refusal names. */
  form: string;
  action: string;
  draft: StrategyDraft;
  submit: string;
}

function RolloutFields({ p }: { p: FormProps }) {
  const { error } = p.model;
  const params = p.draft.parameters;
  const id = (field: string) => idOf(p.form, field);
  return (
    <>
      <div class="field field-wide">
        <label for={id('rollout')}>Rollout (%)</label>
        <div class="rollout">
          <input type="number" id={id('rollout')} name="parameters.rollout" min={0} max={100} step={1} inputmode="numeric" value={params['rollout'] ?? '100'}
            {...errorAttrs(error, p.form, 'parameters.rollout', id('rollout'))} />
          <input type="range" min={0} max={100} step={1} value={params['rollout'] ?? '100'} data-sync={id('rollout')} aria-label="Rollout slider" tabindex={-1} />
        </div>
        <FieldError error={error} form={p.form} field="parameters.rollout" id={id('rollout')} />
      </div>
      <div class="field">
        <label for={id('stickiness')}>Stickiness</label>
        <select id={id('stickiness')} name="parameters.stickiness" {...errorAttrs(error, p.form, 'parameters.stickiness', id('stickiness'))}>
          <Options options={STICKINESS} current={params['stickiness'] ?? 'default'} />
        </select>
        <FieldError error={error} form={p.form} field="parameters.stickiness" id={id('stickiness')} />
      </div>
      <div class="field">
        <label for={id('groupId')}>Group id</label>
        <input id={id('groupId')} name="parameters.groupId" maxlength={100} value={params['groupId'] ?? ''} autocapitalize="none" spellcheck={false}
          {...errorAttrs(error, p.form, 'parameters.groupId', id('groupId'), `${id('groupId')}-hint`)} />
        <p class="hint" id={`${id('groupId')}-hint`}>Empty: the flag's name.</p>
        <FieldError error={error} form={p.form} field="parameters.groupId" id={id('groupId')} />
      </div>
    </>
  );
}

function OtherParameters({ p }: { p: FormProps }) {
  const { error } = p.model;
  return (
    <>
      {Object.entries(p.draft.parameters).map(([key, value]) => {
        const id = idOf(p.form, 'param', key);
        return (
          <div class="field">
            <label for={id}>{key}</label>
            <input id={id} name={`parameters.${key}`} value={value} {...errorAttrs(error, p.form, `parameters.${key}`, id)} />
            <FieldError error={error} form={p.form} field={`parameters.${key}`} id={id} />
          </div>
        );
      })}
    </>
  );
}

/** The strategy form. */
export function StrategyForm(p: FormProps) {
  const { model, form, draft } = p;
  const { error } = model;
  const id = (field: string) => idOf(form, field);
  return (
    <form method="post" action={p.action} class="form-grid strategy-form" aria-label={p.submit}>
      <Csrf ifMatch={model.ifMatch} />
      <div class="field-wide"><FormAlert error={error} form={form} /></div>
      <div class="field">
        <label for={id('name')}>Strategy</label>
        <select id={id('name')} name="name" {...errorAttrs(error, form, 'name', id('name'))}>
          {model.strategyTypes.map((s) => <option value={s.name} selected={s.name === draft.name}>{s.title}</option>)}
        </select>
        <FieldError error={error} form={form} field="name" id={id('name')} />
      </div>
      <div class="field">
        <label for={id('title')}>Title <span class="muted">(optional)</span></label>
        <input id={id('title')} name="title" maxlength={100} value={draft.title} {...errorAttrs(error, form, 'title', id('title'))} />
        <FieldError error={error} form={form} field="title" id={id('title')} />
      </div>
      {draft.name === 'flexibleRollout' ? <RolloutFields p={p} /> : <OtherParameters p={p} />}
      <div class="field field-wide checks">
        <label class="check"><input type="checkbox" name="disabled" checked={draft.disabled} /> Disabled (kept, but not evaluated)</label>
      </div>
      <ConstraintEditor error={error} form={form} contextFields={model.contextFields} constraints={draft.constraints} />
      {model.segments.length > 0 ? (
        <fieldset class="field-wide segments" {...errorAttrs(error, form, 'segments', id('segments'))}>
          <legend>Segments</legend>
          {model.segments.map((s) => <label class="check"><input type="checkbox" name="segments" value={String(s.id)} checked={draft.segments.includes(s.id)} /> {s.name}</label>)}
          <FieldError error={error} form={form} field="segments" id={id('segments')} />
        </fieldset>
      ) : null}
      <details class="field-wide strategy-variants" open={draft.variants.length > 0 || (error?.form === form && Object.keys(error.fields).some((field) => field.startsWith('variants.')))}>
        <summary>Strategy variants ({draft.variants.length})</summary>
        {draft.variants.map((row, n) => <VariantRow error={error} form={form} idPrefix={idOf(form, 'v')} n={n} row={row} isNew={false} />)}
        <VariantRow error={error} form={form} idPrefix={idOf(form, 'v')} n={draft.variants.length} row={{ name: '', weightType: 'variable', weight: '', stickiness: draft.parameters['stickiness'] || 'default', payloadType: '', payloadValue: '', overrides: '' }} isNew />
      </details>
      <div class="form-actions field-wide"><button type="submit" class="button button-primary">{p.submit}</button></div>
    </form>
  );
}
