/** @jsxImportSource hono/jsx */
/**
 * One change request (`/projects/:projectId/change-requests/:id`): its title (renamed by its author), state,
 * environment and author; every change with its diff and conflicts; the review (approvals, steps, schedule) and
 * the comments.
 */
import type { FormDraft } from '../../forms/form.js';
import type { TitleForm } from '../../forms/change-request.forms.js';
import { Layout } from '../../layout.js';
import { Csrf, errorAttrs, FieldError, FormAlert, refusedIn, When } from '../form-parts.js';
import { personWords } from '../history/entry-words.js';
import { Notice } from '../notice.js';
import { ProjectNav } from '../project-nav.js';
import { changeRequestsUrl, changeRequestUrl } from './change-request-urls.js';
import type { RequestPageModel } from './request-model.js';
import { RequestChanges } from './request-changes.js';
import { RequestReview } from './request-review.js';
import { requestName, StateBadge } from './state-badge.js';

function Rename({ model }: { model: RequestPageModel }) {
  if (!model.may.rename) return null;
  const error = refusedIn<FormDraft<typeof TitleForm>>(model.refused, 'title');
  return (
    <details class="edit-panel cr-rename" open={error !== undefined}>
      <summary class="button button-small button-secondary">Rename</summary>
      <form method="post" action={`${changeRequestUrl(model.project.id, model.request.id)}/title`} class="form-stack" aria-label="Rename the change request">
        <Csrf />
        <FormAlert error={error} form="title" />
        <div class="field">
          <label for="cr-title">Title</label>
          <input id="cr-title" name="title" maxlength={1000} required value={error?.draft.title ?? model.request.title} autofocus={error !== undefined} {...errorAttrs(error, 'title', 'title', 'cr-title')} />
          <FieldError error={error} form="title" field="title" id="cr-title" />
        </div>
        <div class="form-actions"><button type="submit" class="button button-primary">Save title</button></div>
      </form>
    </details>
  );
}

/** The whole page. */
export function ChangeRequestPage({ model }: { model: RequestPageModel }) {
  const { project, request } = model;
  const conflicts = model.conflicts ? model.conflicts.features.size + model.conflicts.changes.length : 0;
  return (
    <Layout title={`${requestName(request)} · ${project.name}`} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol>
          <li><a href="/projects">Projects</a></li>
          <li><a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a></li>
          <li><a href={changeRequestsUrl(project.id)}>Change requests</a></li>
          <li><span aria-current="page">{`#${request.id}`}</span></li>
        </ol>
      </nav>
      <div class="page-header">
        <div class="title-block">
          <h1 class="cr-title">{requestName(request)}</h1>
          <p class="cr-meta">
            <StateBadge request={request} />
            <span>{'in '}<strong>{request.environment}</strong></span>
            <span>{'by '}{personWords(request.createdBy, model.people)}{', '}<When at={request.createdAt} /></span>
          </p>
        </div>
        <Rename model={model} />
      </div>
      <ProjectNav projectId={project.id} projectName={project.name} current="change-requests" />
      <Notice notice={model.notice} />
      {conflicts > 0
        ? <p class="alert alert-error" role="alert">{`${conflicts === 1 ? 'One change conflicts' : `${conflicts} changes conflict`} with what moved since ${conflicts === 1 ? 'it was' : 'they were'} added: see below. Applying overwrites what moved.`}</p>
        : null}
      {/* A refused step or discard is about the request as a whole, and its button may be gone since: said here. */}
      {model.refused && (model.refused.form === 'step' || model.refused.form.startsWith('discard'))
        ? <FormAlert error={model.refused} form={model.refused.form} />
        : null}
      <div class="cr-layout">
        <section class="cr-main" aria-labelledby="cr-changes-title">
          <h2 id="cr-changes-title" class="section-title">{`Changes (${request.changes.length})`}</h2>
          <RequestChanges model={model} />
        </section>
        <div class="cr-side">
          <RequestReview model={model} />
        </div>
      </div>
    </Layout>
  );
}
