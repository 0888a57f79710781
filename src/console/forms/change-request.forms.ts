/**
 * The forms of a change request's page, validated by the API routes' own schemas (`change-request.schema.ts`):
 * its title, a comment, a step of its state (submit, approve, reject, cancel, apply, with an optional comment),
 * and a schedule: a date and time (UTC) from a `datetime-local` field, sent as the API's `scheduledAt`.
 */
import * as v from 'valibot';
import { CommentBodySchema, StateBodySchema, TitleBodySchema } from '../../schemas/change-request.schema.js';
import { text, trimmed } from './fields.js';
import { defineForm } from './form.js';

/** A request's title (its author's, or an admin's). */
export const TitleForm = defineForm({ name: 'title', fields: v.object({ title: trimmed() }), schema: TitleBodySchema });

/** A comment on an open request. */
export const CommentForm = defineForm({ name: 'comment', fields: v.object({ text: text() }), schema: CommentBodySchema, single: 'text' });

/** A step of the request's state, by the button pressed (`state`), with the comment written beside it. */
export const StepForm = defineForm({
  name: 'step',
  fields: v.object({ state: text(), comment: text() }),
  body: (draft) => ({ state: draft.state, ...(draft.comment.trim() === '' ? {} : { comment: draft.comment }) }),
  schema: StateBodySchema,
  field: (path) => (path === 'comment' ? 'comment' : undefined),
});

/**
 * `datetime-local`'s value (`2026-05-05T06:00`, seconds optional) read as UTC, as the API's `scheduledAt`; an
 * empty field stays absent (the schema then says it is required), anything else is passed on for it to refuse.
 */
export function scheduledAtOf(local: string): string | undefined {
  if (local === '') return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local) ? `${local}:00Z` : `${local}Z`;
}

/** A schedule (or a new one for a scheduled request): when, in UTC. The past is refused by the project's mailbox. */
export const ScheduleForm = defineForm({
  name: 'schedule',
  fields: v.object({ scheduledAt: trimmed() }),
  body: (draft) => {
    const at = scheduledAtOf(draft.scheduledAt);
    return at === undefined ? { state: 'Scheduled' } : { state: 'Scheduled', scheduledAt: at };
  },
  schema: StateBodySchema,
  single: 'scheduledAt',
  sentences: ['scheduledAt'],
});
