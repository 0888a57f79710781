/** @jsxImportSource hono/jsx */
/** The project's segments (edited on the segment pages, scoped to the project) and deleting the project. */
import { FormAlert, PostButton } from '../form-parts.js';
import type { SettingsModel } from './settings-model.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The project's own segments, with a link to make one. */
export function SegmentsSection({ model }: { model: SettingsModel }) {
  return (
    <section class="card settings-section" id="segments" aria-labelledby="segments-title">
      <div class="section-head">
        <h2 id="segments-title" class="section-title">Segments</h2>
        {model.may.update ? <a class="button button-small" href={`/admin/new-segment?project=${encodeURIComponent(model.project.id)}`}>New segment<span class="sr-only"> of this project</span></a> : null}
      </div>
      {model.projectSegments.length === 0
        ? <p class="muted">No segments of this project. Its strategies may use the global segments too.</p>
        : <ul class="project-segments">{model.projectSegments.map((s) => <li><a href={`/admin/segments/${s.id}`}>{s.name}</a> <span class="muted small">{plural(s.constraints.length, 'constraint')}</span></li>)}</ul>}
    </section>
  );
}

/** Deleting the project, for those who may (never the default project). */
export function DeleteSection({ model }: { model: SettingsModel }) {
  if (!model.may.update) return null;
  const { project } = model;
  if (project.id === 'default') return null;
  const holds = `${plural(project.activeFlags, 'active flag')} and ${plural(project.archivedFlags, 'archived flag')}`;
  return (
    <section class="card settings-section danger-zone" id="delete" aria-labelledby="delete-title">
      <h2 id="delete-title" class="section-title">Delete project</h2>
      <p>{`${project.name} holds ${holds}. A project with active flags cannot be deleted: archive or move them first.`}</p>
      <FormAlert error={model.error} form="delete" />
      <details class="confirm" open={model.error?.form === 'delete'}>
        <summary class="button button-danger-outline">Delete project…</summary>
        <div class="confirm-panel" role="group" aria-label="Delete project">
          <p>{`Delete ${project.name} for good? Its ${holds}, its segments and the API tokens scoped to it alone go with it. This cannot be undone.`}</p>
          <PostButton action={`${model.base}/delete`} class="button button-danger" label={`Delete ${project.name}`} />
        </div>
      </details>
    </section>
  );
}
