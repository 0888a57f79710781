/** @jsxImportSource hono/jsx */
/**
 * A readable diff: one line per field that moved, its value before struck through and its value after, each
 * labelled in words ("before", "after", "added", "removed"), so the change is never told by colour alone.
 */
import type { FieldChange } from '../../../queries/history/change-words.js';

function Items({ items, kind }: { items: string[]; kind: 'added' | 'removed' }) {
  return (
    <span class={`diff-side diff-${kind}`}>
      <span class="diff-label">{kind}</span>
      {items.map((item) => <>{' '}{kind === 'added' ? <ins>{item}</ins> : <del>{item}</del>}</>)}
    </span>
  );
}

function Change({ change }: { change: FieldChange }) {
  const { path, before, after } = change;
  if (change.added !== undefined || change.removed !== undefined) {
    return (
      <li class="diff-line">
        <span class="diff-path">{path}:</span>{' '}
        {change.added && change.added.length > 0 ? <Items items={change.added} kind="added" /> : null}
        {change.added && change.added.length > 0 && change.removed && change.removed.length > 0 ? ' ' : null}
        {change.removed && change.removed.length > 0 ? <Items items={change.removed} kind="removed" /> : null}
      </li>
    );
  }
  if (before === null && after !== null) return <li class="diff-line"><span class="diff-path">{path}:</span>{' '}<Items items={[after]} kind="added" /></li>;
  if (after === null && before !== null) return <li class="diff-line"><span class="diff-path">{path}:</span>{' '}<Items items={[before]} kind="removed" /></li>;
  return (
    <li class="diff-line">
      <span class="diff-path">{path}:</span>{' '}
      <span class="diff-side diff-before"><span class="diff-label">before</span>{' '}<del>{before ?? '(none)'}</del></span>
      {' '}<span class="diff-arrow" aria-hidden="true">→</span>{' '}
      <span class="diff-side diff-after"><span class="diff-label">after</span>{' '}<ins>{after ?? '(none)'}</ins></span>
    </li>
  );
}

/**
 * The changes as a list (nothing when there are none: "no field moved" is said by the caller).
 *
 * @example <ChangeList changes={entry.changes} />
 */
export function ChangeList({ changes, label }: { changes: FieldChange[]; label?: string | undefined }) {
  if (changes.length === 0) return null;
  return <ul class="diff" aria-label={label}>{changes.map((change) => <Change change={change} />)}</ul>;
}
