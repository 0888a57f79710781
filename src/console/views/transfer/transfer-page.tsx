/** @jsxImportSource hono/jsx */
/**
 * A project's export and import (`/projects/:p/transfer`) in Unleash's format: the export is a download of one
 * environment; an import is checked first (the dry run's errors, warnings and missing permissions, as the
 * validate use case answers them) and only then offered to be written.
 */
import { Layout } from '../../layout.js';
import { Csrf, errorAttrs, FieldError, FormAlert, type Refusal } from '../form-parts.js';
import { ProjectNav } from '../project-nav.js';
import { Notice } from '../notice.js';

/** One finding of a dry run: a message and the items it names. */
export interface TransferItem {
  message: string;
  affectedItems: string[];
}

/** What the import form shows again: the sent values, and the dry run or the refusal they met. */
export interface ImportState {
  environment: string;
  /** The export's text (a chosen file's, or what was pasted). */
  data: string;
  /** A refusal of the form (no JSON, a field the schema refused), its messages next to the fields they name. */
  refusal?: Refusal<unknown> | undefined;
  /** The dry run's lists, each rendered as it came. */
  dryRun?: { errors: TransferItem[]; warnings: TransferItem[]; permissions: TransferItem[]; flags: number } | undefined;
}

export interface TransferPageProps {
  project: { id: string; name: string };
  environments: string[];
  /** Whether the viewer may import (`UPDATE_DEFINITIONS`, as `POST /api/admin/features-batch/import`). */
  mayImport: boolean;
  form?: ImportState | undefined;
  /** After an import: what changed. */
  done?: { created: number; updated: number; skipped: number } | undefined;
}

const base = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/transfer`;

function Findings({ title, items, kind }: { title: string; items: TransferItem[]; kind: 'error' | 'warning' | 'permission' }) {
  if (items.length === 0) return null;
  return (
    <div class={`findings findings-${kind}`}>
      <h3>{title}</h3>
      <ul>
        {items.map((item) => (
          <li>
            <p>{item.message}</p>
            {item.affectedItems.length > 0 ? <ul class="chips">{item.affectedItems.map((a) => <li class="chip">{a}</li>)}</ul> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function DryRun({ state }: { state: ImportState }) {
  const run = state.dryRun;
  if (!run) return null;
  const blocked = run.errors.length + run.permissions.length > 0;
  return (
    <section class={`dry-run ${blocked ? 'dry-run-blocked' : 'dry-run-ready'}`} aria-labelledby="dry-run-title" role={blocked ? 'alert' : 'status'}>
      <h3 id="dry-run-title">{blocked ? 'The dry run found problems: nothing can be imported yet' : `Ready to import ${run.flags} ${run.flags === 1 ? 'flag' : 'flags'} into ${state.environment}`}</h3>
      <Findings title="Errors" items={run.errors} kind="error" />
      <Findings title="Missing permissions" items={run.permissions} kind="permission" />
      <Findings title="Warnings" items={run.warnings} kind="warning" />
      {!blocked && run.warnings.length === 0 ? <p class="muted">No errors or warnings. Nothing has been written yet.</p> : null}
    </section>
  );
}

function ImportForm({ project, environments, state }: { project: string; environments: string[]; state: ImportState }) {
  const error = state.refusal;
  const named = (field: string) => error?.fields[field] !== undefined;
  const ready = state.dryRun !== undefined && state.dryRun.errors.length + state.dryRun.permissions.length === 0;
  return (
    <form method="post" action={`${base(project)}/validate`} enctype="multipart/form-data" class="form-stack" aria-labelledby="import-title">
      <Csrf />
      <FormAlert error={error} form="import" />
      <div class="field">
        <label for="import-environment">Environment to import into</label>
        <select id="import-environment" name="environment" {...errorAttrs(error, 'import', 'environment', 'import-environment')}>
          {environments.map((env) => <option value={env} selected={env === state.environment}>{env}</option>)}
        </select>
        <FieldError error={error} form="import" field="environment" id="import-environment" />
      </div>
      <div class="field">
        <label for="import-file">An export file (JSON)</label>
        <input id="import-file" type="file" name="file" accept="application/json,.json" />
      </div>
      <div class="field">
        <label for="import-data">Or paste the export</label>
        <textarea id="import-data" name="data" rows={10} spellcheck={false} class="code-area" {...errorAttrs(error, 'import', 'data', 'import-data', named('data') ? undefined : 'import-data-hint')}>{state.data}</textarea>
        {named('data') ? <FieldError error={error} form="import" field="data" id="import-data" /> : <p class="hint" id="import-data-hint">A chosen file is read instead of the text.</p>}
      </div>
      <DryRun state={state} />
      <div class="form-actions">
        <button type="submit" class={ready ? 'button' : 'button button-primary'}>{ready ? 'Check again' : 'Check (dry run)'}</button>
        {ready ? <button type="submit" formaction={`${base(project)}/import`} class="button button-primary">{`Import ${state.dryRun!.flags} ${state.dryRun!.flags === 1 ? 'flag' : 'flags'}`}</button> : null}
      </div>
    </form>
  );
}

/** The whole page. */
export function TransferPage({ project, environments, mayImport, form, done }: TransferPageProps) {
  const state = form ?? { environment: environments[0] ?? '', data: '' };
  return (
    <Layout title={`Export and import · ${project.name}`} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a></li><li><span aria-current="page">Export and import</span></li></ol>
      </nav>
      <div class="page-header"><div><h1>{project.name}</h1></div></div>
      <ProjectNav projectId={project.id} projectName={project.name} current="transfer" />
      <Notice notice={done ? `Imported: ${done.created} created, ${done.updated} updated, ${done.skipped} archived here and left alone.` : undefined} />
      <div class="transfer-grid">
        <section class="card" aria-labelledby="export-title">
          <h2 id="export-title">Export</h2>
          <p class="muted">The project's active flags with their strategies, switch and variants in one environment, in Unleash's export format.</p>
          <form method="get" action={`${base(project.id)}/export`} class="form-stack">
            <div class="field">
              <label for="export-environment">Environment</label>
              <select id="export-environment" name="environment">
                {environments.map((env) => <option value={env}>{env}</option>)}
              </select>
            </div>
            <div class="form-actions"><button type="submit" class="button button-primary">Download JSON</button></div>
          </form>
        </section>
        <section class="card" aria-labelledby="import-title">
          <h2 id="import-title">Import</h2>
          {mayImport ? (
            <>
              <p class="muted">Flags of an export (from flagpole or Unleash) are created or updated in this project; new tag types and context fields are created too. A dry run shows what would fail before anything is written.</p>
              <ImportForm project={project.id} environments={environments} state={state} />
            </>
          ) : <p class="muted">Importing creates tag types and context fields as well as flags: it needs a root Admin or Editor.</p>}
        </section>
      </div>
    </Layout>
  );
}
