/** @jsxImportSource hono/jsx */
/**
 * A segment's page (`/admin/segments/:id`, and `/admin/new-segment`): its name, description, project and
 * constraints in the same constraint editor as a strategy's; where it is used; delete after a confirmation
 * naming those uses. Without the right to change it, the same facts read-only.
 */
import type { Segment } from '../../../domain/segment.js';
import type { SegmentUsageSummary } from '../../../queries/segment-usage.query.js';
import type { SegmentDraft } from '../../forms/segment.form.js';
import { OPERATOR_LABELS, takesList } from '../../forms/constraints.form.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { ConstraintEditor } from '../flag/constraint-editor.js';
import { Csrf, errorAttrs, FieldError, FormAlert, PostButton, When, type Refusal } from '../form-parts.js';
import { Notice } from '../notice.js';

export interface SegmentEditorProps {
  /** Absent for a new segment. */
  segment?: Segment | undefined;
  draft: SegmentDraft;
  usage?: SegmentUsageSummary | undefined;
  mayWrite: boolean;
  /** Where the segment may be put: '' (global) when the viewer may write global segments, and projects. */
  places: { value: string; label: string }[];
  contextFields: string[];
  error?: Refusal<unknown> | undefined;
  notice?: string | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const FORM = 'segment';

function Field({ p, field, label, children, hint }: { p: SegmentEditorProps; field: string; label: string; children: unknown; hint?: string }) {
  const id = `segment-${field}`;
  return (
    <div class={field === 'description' ? 'field field-wide' : 'field'}>
      <label for={id}>{label}</label>
      {children}
      {hint ? <p class="hint" id={`${id}-hint`}>{hint}</p> : null}
      <FieldError error={p.error} form={FORM} field={field} id={id} />
    </div>
  );
}

function SegmentForm(p: SegmentEditorProps) {
  const { draft, error } = p;
  const attrs = (field: string, hint?: boolean) => errorAttrs(error, FORM, field, `segment-${field}`, hint ? `segment-${field}-hint` : undefined);
  const action = p.segment ? `/admin/segments/${p.segment.id}` : '/admin/segments';
  return (
    <form method="post" action={action} class="card form-grid segment-form" aria-label={p.segment ? 'Segment' : 'New segment'}>
      <Csrf />
      <div class="field-wide"><FormAlert error={error} form={FORM} /></div>
      <Field p={p} field="name" label="Name">
        <input id="segment-name" name="name" required maxlength={100} value={draft.name} autocapitalize="none" spellcheck={false} {...attrs('name')} />
      </Field>
      <Field p={p} field="project" label="Project" hint="A project's segment can be used by that project's strategies only.">
        <select id="segment-project" name="project" {...attrs('project', true)}>
          {p.places.map((place) => <option value={place.value} selected={place.value === draft.project}>{place.label}</option>)}
        </select>
      </Field>
      <Field p={p} field="description" label="Description (optional)">
        <input id="segment-description" name="description" maxlength={1000} value={draft.description} {...attrs('description')} />
      </Field>
      <ConstraintEditor error={error} form={FORM} contextFields={p.contextFields} constraints={draft.constraints} />
      <div class="form-actions field-wide"><button type="submit" class="button button-primary">{p.segment ? 'Save segment' : 'Create segment'}</button></div>
    </form>
  );
}

function ReadOnly({ segment }: { segment: Segment }) {
  return (
    <section class="card" aria-labelledby="segment-facts">
      <h2 id="segment-facts" class="section-title">Constraints</h2>
      {segment.description ? <p>{segment.description}</p> : null}
      {segment.constraints.length === 0 ? <p class="muted">No constraints: everyone matches.</p> : (
        <ul class="constraint-list">
          {segment.constraints.map((c) => (
            <li><code>{c.contextName}</code> {c.inverted ? 'not ' : ''}{OPERATOR_LABELS[c.operator as keyof typeof OPERATOR_LABELS] ?? c.operator} <code>{takesList(c.operator) ? (c.values ?? []).join(', ') : c.value ?? ''}</code></li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Usage({ usage }: { usage: SegmentUsageSummary }) {
  const shown = usage.uses.slice(0, 50);
  return (
    <section class="card" aria-labelledby="segment-usage">
      <h2 id="segment-usage" class="section-title">Used by</h2>
      {usage.uses.length === 0 ? <p class="muted">No strategy uses this segment.</p> : (
        <>
          <p>{`${plural(usage.flagCount, 'flag')} in ${plural(usage.projects.length, 'project')}`}</p>
          <ul class="usage-places">
            {shown.map((u) => (
              <li>
                {u.feature === null
                  ? <a href={`/projects/${encodeURIComponent(u.project)}/settings`}>{`Default strategy of ${u.project} in ${u.environment}`}</a>
                  : <a href={`/projects/${encodeURIComponent(u.project)}/features/${encodeURIComponent(u.feature)}`}>{`${u.project}/${u.feature}`}</a>}
                {u.feature === null ? null : <span class="muted">{` in ${u.environment}${u.archived ? ' (archived)' : ''}`}</span>}
              </li>
            ))}
          </ul>
          {usage.uses.length > shown.length ? <p class="muted small">{`and ${usage.uses.length - shown.length} more`}</p> : null}
        </>
      )}
    </section>
  );
}

function Delete({ p, segment, usage }: { p: SegmentEditorProps; segment: Segment; usage: SegmentUsageSummary }) {
  const question = usage.uses.length === 0
    ? `Delete the segment "${segment.name}" and its ${plural(segment.constraints.length, 'constraint')}? This cannot be undone.`
    : `The segment "${segment.name}" is used by ${plural(usage.flagCount, 'flag')}; it cannot be deleted until no strategy uses it.`;
  return (
    <details class="confirm" open={p.error?.form === 'delete'}>
      <summary class="button button-danger-outline">Delete segment…</summary>
      <div class="confirm-panel" role="group" aria-label="Delete segment">
        <p>{question}</p>
        <FormAlert error={p.error} form="delete" />
        <PostButton action={`/admin/segments/${segment.id}/delete`} class="button button-danger" label={`Delete ${segment.name}`} />
      </div>
    </details>
  );
}

/** The whole page. */
export function SegmentEditor(p: SegmentEditorProps) {
  const { segment, usage } = p;
  const title = segment ? segment.name : 'New segment';
  const lead = segment
    ? `${segment.project === null ? 'Global segment' : `Segment of project ${segment.project}`} · created by ${segment.createdBy ?? 'unknown'}`
    : 'Name a set of constraints once; strategies then select it by name.';
  return (
    <AdminFrame title={title} current="segments" lead={lead}
      actions={segment && usage && p.mayWrite ? <Delete p={p} segment={segment} usage={usage} /> : undefined}>
      <nav aria-label="Breadcrumb" class="breadcrumb"><ol><li><a href="/admin/segments">Segments</a></li><li><span aria-current="page">{title}</span></li></ol></nav>
      <Notice notice={p.notice} />
      {segment && !p.mayWrite ? <p class="alert alert-info">You can read this segment; your roles do not allow changing it.</p> : null}
      <div class="stack">
        {p.mayWrite ? <SegmentForm {...p} /> : segment ? <ReadOnly segment={segment} /> : null}
        {segment && usage ? <Usage usage={usage} /> : null}
        {segment ? <p class="muted small">Created <When at={segment.createdAt} /></p> : null}
      </div>
    </AdminFrame>
  );
}
