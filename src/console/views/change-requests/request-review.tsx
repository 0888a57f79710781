/** @jsxImportSource hono/jsx */
/**
 * The review part of a change request's page: approvals so far, the schedule, the steps the viewer may take
 * (one form whose buttons name the state asked for, with an optional comment), the schedule form (a date and a
 * time, UTC) and discarding a draft; then the comments and the form to add one. Buttons appear only for the
 * steps the request's state and the viewer's permissions allow; the project's mailbox decides anyway.
 */
import type { ChangeRequest } from '../../../domain/change-request.js';
import type { CommentForm as CommentFormSpec, ScheduleForm as ScheduleFormSpec, StepForm as StepFormSpec } from '../../forms/change-request.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, PostButton, refusedIn, When } from '../form-parts.js';
import { personWords } from '../history/entry-words.js';
import { changeRequestUrl } from './change-request-urls.js';
import type { RequestPageModel } from './request-model.js';

const STEPS = [
  { state: 'In review', label: 'Submit for review', may: 'submit', primary: true },
  { state: 'Approved', label: 'Approve', may: 'approve', primary: true },
  { state: 'Applied', label: 'Apply now', may: 'apply', primary: true },
  { state: 'Rejected', label: 'Reject', may: 'reject', primary: false },
  { state: 'Cancelled', label: 'Cancel request', may: 'cancel', primary: false },
] as const;

function Schedule({ request }: { request: ChangeRequest }) {
  const schedule = request.schedule;
  if (!schedule || request.state !== 'Scheduled') return null;
  return (
    <div class={schedule.status === 'pending' ? 'cr-schedule' : 'cr-schedule cr-conflict'}>
      <p><strong>{schedule.status === 'pending' ? 'Scheduled for ' : `Schedule ${schedule.status}: was due `}</strong><When at={schedule.scheduledAt} /></p>
      {schedule.reason ? <p>{schedule.reason}</p> : null}
    </div>
  );
}

function Verdicts({ model }: { model: RequestPageModel }) {
  const { request, people } = model;
  return (
    <dl class="facts cr-facts">
      <div><dt>Approvals</dt><dd>{`${request.approvals.length} of ${request.minApprovals} needed`}{request.approvals.length > 0 ? `: ${request.approvals.map((a) => personWords(a.by, people)).join(', ')}` : ''}</dd></div>
      {request.rejections.length > 0 ? <div><dt>Rejected by</dt><dd>{request.rejections.map((r) => personWords(r.by, people)).join(', ')}</dd></div> : null}
      {request.applied ? <div><dt>Applied</dt><dd><When at={request.applied.at} />{` by ${personWords(request.applied.by, people)}${request.applied.scheduled ? ', on schedule' : ''}`}</dd></div> : null}
    </dl>
  );
}

function StepForm({ model, base }: { model: RequestPageModel; base: string }) {
  const steps = STEPS.filter((s) => model.may[s.may]);
  if (steps.length === 0) return null;
  const error = refusedIn<FormDraft<typeof StepFormSpec>>(model.refused, 'step');
  return (
    <form method="post" action={`${base}/state`} class="form-stack cr-step" aria-label="Review">
      <Csrf />
      <div class="field">
        <label for="cr-step-comment">Note with this step <span class="muted">(optional, kept as a comment)</span></label>
        <textarea id="cr-step-comment" name="comment" rows={2} maxlength={1000} autofocus={error?.fields['comment'] !== undefined} {...errorAttrs(error, 'step', 'comment', 'cr-step-comment')}>{error?.draft.comment ?? ''}</textarea>
        <FieldError error={error} form="step" field="comment" id="cr-step-comment" />
      </div>
      <div class="form-actions cr-buttons">
        {steps.map((s) => <button type="submit" name="state" value={s.state} class={s.primary ? 'button button-primary' : 'button button-secondary'}>{s.label}</button>)}
      </div>
    </form>
  );
}

function ScheduleForm({ model, base }: { model: RequestPageModel; base: string }) {
  if (!model.may.schedule) return null;
  const error = refusedIn<FormDraft<typeof ScheduleFormSpec>>(model.refused, 'schedule');
  const id = 'cr-schedule-at';
  const rescheduling = model.request.state === 'Scheduled';
  return (
    <form method="post" action={`${base}/schedule`} class="form-stack cr-schedule-form" aria-label={rescheduling ? 'Reschedule' : 'Schedule'}>
      <Csrf />
      <FormAlert error={error} form="schedule" />
      <div class="field">
        <label for={id}>{rescheduling ? 'New date and time (UTC)' : 'Apply at, date and time (UTC)'}</label>
        <input id={id} type="datetime-local" name="scheduledAt" step={1} required value={error?.draft.scheduledAt ?? ''} autofocus={error !== undefined}
          {...errorAttrs(error, 'schedule', 'scheduledAt', id, `${id}-hint`)} />
        <p class="hint" id={`${id}-hint`}>{'In UTC; it is '}<When at={model.now} />{' now.'}</p>
        <FieldError error={error} form="schedule" field="scheduledAt" id={id} />
      </div>
      <div class="form-actions"><button type="submit" class="button">{rescheduling ? 'Reschedule' : 'Schedule'}</button></div>
    </form>
  );
}

function Comments({ model, base }: { model: RequestPageModel; base: string }) {
  const { request, people } = model;
  const error = refusedIn<FormDraft<typeof CommentFormSpec>>(model.refused, 'comment');
  return (
    <section class="card" aria-labelledby="cr-comments-title">
      <h2 id="cr-comments-title">Comments <span class="muted">({request.comments.length})</span></h2>
      {request.comments.length === 0 ? <p class="muted">No comments yet.</p> : (
        <ol class="cr-comments">
          {request.comments.map((c) => (
            <li>
              <p class="small muted"><strong>{personWords(c.by, people)}</strong>{', '}<When at={c.at} /></p>
              <p class="cr-comment-text">{c.text}</p>
            </li>
          ))}
        </ol>
      )}
      {model.may.comment ? (
        <form method="post" action={`${base}/comments`} class="form-stack" aria-label="Add a comment">
          <Csrf />
          <div class="field">
            <label for="cr-comment">Comment</label>
            <textarea id="cr-comment" name="text" rows={3} maxlength={1000} required autofocus={error !== undefined} {...errorAttrs(error, 'comment', 'text', 'cr-comment')}>{error?.draft.text ?? ''}</textarea>
            <FieldError error={error} form="comment" field="text" id="cr-comment" />
          </div>
          <div class="form-actions"><button type="submit" class="button">Add comment</button></div>
        </form>
      ) : null}
    </section>
  );
}

/** The review card and the comments. */
export function RequestReview({ model }: { model: RequestPageModel }) {
  const base = changeRequestUrl(model.project.id, model.request.id);
  const any = model.may.submit || model.may.approve || model.may.reject || model.may.apply || model.may.cancel || model.may.schedule || model.may.discardDraft;
  return (
    <>
      <section class="card cr-review" aria-labelledby="cr-review-title">
        <h2 id="cr-review-title">Review</h2>
        <Verdicts model={model} />
        <Schedule request={model.request} />
        <StepForm model={model} base={base} />
        <ScheduleForm model={model} base={base} />
        {model.may.discardDraft ? <div class="cr-discard"><PostButton action={`${base}/discard`} label="Discard this draft" class="button button-secondary" /></div> : null}
        {any ? null : <p class="muted">{model.request.state === 'Applied' || model.request.state === 'Cancelled' || model.request.state === 'Rejected'
          ? 'This request is closed: nothing changes it any more.'
          : 'Nothing here is yours to do: your roles do not allow the next step of this request.'}</p>}
      </section>
      <Comments model={model} base={base} />
    </>
  );
}
