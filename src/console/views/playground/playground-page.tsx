/** @jsxImportSource hono/jsx */
/**
 * The playground (`/playground`): a GET form (environments, projects, a context with the context fields' legal
 * values offered) whose whole state is the address, and under it every flag's result for that context, grouped
 * per flag, with the reason per strategy, constraint and segment. A refusal is the API's message next to its field.
 */
import type { ContextField } from '../../../domain/definitions.js';
import type { Environment } from '../../../domain/service-state.js';
import type { RequestContext } from '../../../schemas/frontend.schema.js';
import { Layout } from '../../layout.js';
import { isProperty, playgroundUrl, STANDARD_FIELDS, type PlaygroundForm } from '../../playground-form.js';
import { RESULTS_PAGE_SIZE, type ResultPage } from '../../playground-results.js';
import { errorAttrs, FieldError, FormAlert, idOf, type Refusal } from '../form-parts.js';
import { FlagResultCard } from './flag-result.js';

export interface PlaygroundPageProps {
  form: PlaygroundForm;
  environments: Environment[];
  projects: { id: string; name: string }[];
  contextFields: ContextField[];
  refusal?: Refusal<PlaygroundForm> | undefined;
  results?: { page: ResultPage; context: RequestContext } | undefined;
}

const HINTS: Record<string, string> = {
  appName: 'Required, as the API requires it.',
  currentTime: 'ISO 8601, for example 2025-06-01T12:00:00Z. Empty: now.',
  remoteAddress: 'An IP address, for example 10.0.0.1.',
};

const FORM = 'playground';

/** One context input, with its field's legal values offered as a datalist. */
function ContextInput({ name, formName, value, field, refusal }: { name: string; formName: string; value: string; field: ContextField | undefined; refusal: Refusal<PlaygroundForm> | undefined }) {
  const id = idOf('pg', 'ctx', name);
  const legal = field?.legalValues ?? [];
  // Built-in fields' stored descriptions only repeat their names; custom fields' say what they are.
  const about = isProperty(name) && field?.description ? field.description.replace(/[.\s]*$/, '.') : undefined;
  const values = legal.length > 0 ? `Legal values: ${legal.map((l) => l.value).join(', ')}.` : undefined;
  const hint = [HINTS[name] ?? about, values].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{name}{name === 'appName' ? <span aria-hidden="true"> *</span> : null}</label>
      <input id={id} name={formName} value={value} maxlength={1000} autocapitalize="none" spellcheck={false} required={name === 'appName'}
        list={legal.length > 0 ? `${id}-values` : undefined} {...errorAttrs(refusal, FORM, name, id, hint !== undefined ? `${id}-hint` : undefined)} />
      {legal.length > 0 ? <datalist id={`${id}-values`}>{legal.map((l) => <option value={l.value}>{l.description ?? l.value}</option>)}</datalist> : null}
      {hint ? <p class="hint" id={`${id}-hint`}>{hint}</p> : null}
      <FieldError error={refusal} form={FORM} field={name} id={id} />
    </div>
  );
}

function Form({ form, environments, projects, contextFields, refusal }: PlaygroundPageProps) {
  const byName = new Map(contextFields.map((f) => [f.name, f]));
  const custom = contextFields.filter((f) => isProperty(f.name));
  return (
    <form method="get" action="/playground" class="card pg-form" aria-label="Playground context">
      <div class="pg-scope">
        <fieldset class="pg-choice" aria-describedby={refusal?.fields['environment'] !== undefined ? 'pg-env-error' : undefined}>
          <legend>Environments</legend>
          <div class="checks">
            {environments.map((e) => <label class="check"><input type="checkbox" name="env" value={e.name} checked={form.environments.includes(e.name)} /> {e.name}{e.enabled ? '' : ' (off)'}</label>)}
          </div>
          <FieldError error={refusal} form={FORM} field="environment" id="pg-env" />
        </fieldset>
        <fieldset class="pg-choice" aria-describedby={refusal?.fields['projects'] !== undefined ? 'pg-projects-error' : undefined}>
          <legend>Projects</legend>
          <div class="checks">
            <label class="check"><input type="radio" name="projects" value="all" checked={form.allProjects} /> All projects</label>
            <label class="check"><input type="radio" name="projects" value="some" checked={!form.allProjects} /> Only these:</label>
          </div>
          <div class="checks pg-projects">
            {projects.map((p) => <label class="check"><input type="checkbox" name="project" value={p.id} checked={form.projects.includes(p.id)} /> {p.name}</label>)}
          </div>
          <FieldError error={refusal} form={FORM} field="projects" id="pg-projects" />
        </fieldset>
      </div>
      <fieldset class="pg-context">
        <legend>Context</legend>
        <div class="form-grid">
          {STANDARD_FIELDS.map((name) => <ContextInput name={name} formName={name} value={form.fields[name] ?? ''} field={byName.get(name)} refusal={refusal} />)}
          {custom.map((f) => <ContextInput name={f.name} formName={`properties.${f.name}`} value={form.properties[f.name] ?? ''} field={f} refusal={refusal} />)}
        </div>
      </fieldset>
      <FormAlert error={refusal} form={FORM} />
      <div class="pg-actions">
        <label for="pg-show" class="small">Show</label>
        <select id="pg-show" name="show" class="select-small">
          {(['all', 'on', 'off'] as const).map((s) => <option value={s} selected={form.show === s}>{s === 'all' ? 'every flag' : s === 'on' ? 'flags on' : 'flags off'}</option>)}
        </select>
        <a class="button button-secondary" href="/playground">Reset</a>
        <button type="submit" class="button button-primary">Evaluate</button>
      </div>
    </form>
  );
}

function Results({ form, page, context, projects }: { form: PlaygroundForm; page: ResultPage; context: RequestContext; projects: Map<string, string> }) {
  const envs = form.environments;
  const first = page.total === 0 ? 0 : (page.page - 1) * RESULTS_PAGE_SIZE + 1;
  const last = Math.min(page.page * RESULTS_PAGE_SIZE, page.total);
  return (
    <section aria-labelledby="pg-results-title" class="pg-results">
      <div class="section-head">
        <h2 id="pg-results-title" class="section-title">Results</h2>
        <p class="muted small" role="status">
          {`${page.evaluated} ${page.evaluated === 1 ? 'flag' : 'flags'} evaluated: `}
          {envs.map((e) => `${page.onIn.get(e) ?? 0} on in ${e}`).join(', ')}
        </p>
      </div>
      {page.total === 0 ? <div class="card empty"><h3>No flags to show</h3><p class="muted">{page.evaluated === 0 ? 'The chosen projects have no flags.' : 'No flag has that result.'}</p></div> : (
        <ul class="pg-flags">
          {page.flags.map((flag) => <FlagResultCard flag={flag} environments={envs} context={context} projectName={projects.get(flag.projectId) ?? flag.projectId} open={page.total <= 5} />)}
        </ul>
      )}
      <nav class="pager" aria-label="Pages of results">
        <p class="pager-status">{`${first}–${last} of ${page.total}`}</p>
        {page.pages > 1 ? (
          <div class="pager-links">
            {page.page > 1 ? <a class="button button-small" href={playgroundUrl(form, { page: page.page - 1 })} rel="prev">Previous</a> : <span class="button button-small" aria-disabled="true">Previous</span>}
            {page.page < page.pages ? <a class="button button-small" href={playgroundUrl(form, { page: page.page + 1 })} rel="next">Next</a> : <span class="button button-small" aria-disabled="true">Next</span>}
          </div>
        ) : null}
      </nav>
    </section>
  );
}

/** The playground page. */
export function PlaygroundPage(props: PlaygroundPageProps) {
  const { form, results } = props;
  return (
    <Layout title="Playground" current="playground">
      <div class="page-header">
        <div>
          <h1>Playground</h1>
          <p class="lead">See what every flag answers for a context, and why. The address holds the whole form: share it to show someone the same result.</p>
        </div>
      </div>
      <Form {...props} />
      {results ? <Results form={form} page={results.page} context={results.context} projects={new Map(props.projects.map((p) => [p.id, p.name]))} /> : null}
    </Layout>
  );
}
