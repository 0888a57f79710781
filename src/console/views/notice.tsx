/** @jsxImportSource hono/jsx */
/** What a page says above its content: a confirmation (announced as a status) or a refusal of the page as a whole (an alert). */

/** A notice: its words, and whether it reports an error. */
export type PageNotice = { kind: 'done' | 'error'; message: string };

/**
 * The notice, if any (a text alone is a confirmation).
 *
 * @example <Notice notice={noticeOf('segments', done)} />
 */
export function Notice({ notice }: { notice: PageNotice | string | undefined }) {
  if (notice === undefined) return null;
  const { kind, message } = typeof notice === 'string' ? { kind: 'done', message: notice } : notice;
  return kind === 'error'
    ? <p class="alert alert-error page-notice" role="alert">{message}</p>
    : <p class="alert alert-info page-notice" role="status">{message}</p>;
}
