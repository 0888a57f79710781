import { bodyLimit } from 'hono/body-limit';
import { apiError } from '../../http/errors.js';
import { honoStep } from '../../http/middleware/body.js';
import type { ConsoleDeps, ConsoleStep } from '../console-deps.js';
import { readForm, type PageForm } from '../forms/form.js';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * The body steps of a page route: bound its size (413, `BODY_LIMIT`, or `IMPORT_BODY_LIMIT` for an import), read
 * it once as a form (415 for anything else, 400 for a form that cannot be parsed): the fields as sent
 * (`c.get('sent')`, dot paths nested: the CSRF step reads `_csrf` there), then the page's form read and validated
 * (`c.get('form')`: the draft, and the value or the error; a refusal is the page's to show, not an error page).
 */
export function formBodySteps(form: PageForm | undefined, limit: number): ConsoleStep[] {
  return [
    honoStep(bodyLimit({ maxSize: limit, onError: () => { throw apiError('PayloadTooLarge', `The form is larger than ${limit} bytes`); } })) as unknown as ConsoleStep,
    async (c) => {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!FORM_TYPES.includes(type)) throw apiError('ContentTypeError', 'A console form is sent as application/x-www-form-urlencoded or multipart/form-data');
      let sent: Record<string, unknown>;
      try {
        sent = await c.req.parseBody({ all: true, dot: true });
      } catch {
        // A multipart body without its boundary, or with broken parts, cannot be read: a 400, never a 500.
        throw apiError('ValidationError', `This form's body could not be read as ${type}: reload the page and send it again`);
      }
      c.set('sent', sent);
      if (form) c.set('form', await readForm(form, sent, c.req.valid('param' as never) ?? {}));
    },
  ];
}

/** The limit of a page's form: `BODY_LIMIT`, or `IMPORT_BODY_LIMIT` for an import. */
export const formLimit = (deps: ConsoleDeps, bodyLimitKind: 'import' | undefined): number => (bodyLimitKind === 'import' ? deps.config.importBodyLimit : deps.config.bodyLimit);
