/**
 * What a page says once a change sent it back (`?done=<key>`): per page, a fixed text for each key (never a text
 * taken from the address), and the counted words of the bulk bars. One place for every page's confirmations.
 *
 * @example done('/admin/segments/3', 'segments', 'saved') // '/admin/segments/3?done=saved'; noticeOf('segments', 'saved') // 'Segment saved.'
 */
export const NOTICES = {
  flag: {
    saved: 'Saved.', toggled: 'Switched.', added: 'Strategy added.', deleted: 'Strategy deleted.', copied: 'Strategies copied.',
    moved: 'Strategy moved.', archived: 'Flag archived.', revived: 'Flag revived: it is off in every environment.', cloned: 'Flag cloned.',
    tagged: 'Tags saved.', linked: 'Dependency saved.', unlinked: 'Dependency removed.',
  },
  settings: {
    saved: 'Saved.', added: 'Member added.', changed: 'Role changed.', removed: 'Member removed.',
    connected: 'Environment connected.', disconnected: 'Environment disconnected.', strategy: 'Default strategy saved.',
  },
  environments: { created: 'Environment created.', saved: 'Type saved.', moved: 'Environment moved.', on: 'Environment turned on.', off: 'Environment turned off.', deleted: 'Environment deleted.' },
  segments: { created: 'Segment created.', saved: 'Segment saved.', deleted: 'Segment deleted.' },
  contextFields: { created: 'Context field created.', saved: 'Context field saved.', deleted: 'Context field deleted.' },
  tagTypes: { created: 'Tag type created.', saved: 'Tag type saved.', deleted: 'Tag type deleted.' },
  strategies: { created: 'Strategy created.', saved: 'Strategy saved.', deleted: 'Strategy deleted.', deprecated: 'Strategy deprecated.', reactivated: 'Strategy reactivated.' },
  users: { created: 'User created.', role: 'Root role saved.', deleted: 'User deleted.', password: 'Password set. Their sessions signed in with the old one have ended.' },
  tokens: { revoked: 'Token revoked.' },
  account: { password: 'Password saved. Your other sessions have ended.', revoked: 'Token revoked.' },
  integrations: { created: 'Integration added.', saved: 'Integration saved.', enabled: 'Integration enabled.', disabled: 'Integration disabled.', deleted: 'Integration deleted.' },
  archive: { revived: 'Flag revived: it is off in every environment.', deleted: 'Flag deleted.' },
  changeRequests: {
    titled: 'Title saved.', commented: 'Comment added.', submitted: 'Sent for review.', approved: 'Approval added.', rejected: 'Change request rejected.',
    cancelled: 'Change request cancelled.', applied: 'Change request applied: its changes are live.', scheduled: 'Change request scheduled.',
    discardedChange: 'Change discarded.', discarded: 'Draft discarded.',
  },
} as const;

/** A page with confirmations. */
export type NoticePage = keyof typeof NOTICES;
/** The keys of a page's confirmations. */
export type Done<P extends NoticePage> = keyof (typeof NOTICES)[P] & string;

/** The confirmation of `page` that `done` (from the address) names, or undefined for any other value. */
export function noticeOf<P extends NoticePage>(page: P, done: string | null | undefined): string | undefined {
  const texts = NOTICES[page] as Readonly<Record<string, string>>;
  return done !== null && done !== undefined && Object.hasOwn(texts, done) ? texts[done] : undefined;
}

/** `path` with `page`'s confirmation `key` in its query (kept with any query `path` has) and `anchor` to scroll to. */
export function done<P extends NoticePage>(path: string, _page: P, key: Done<P>, anchor = ''): string {
  return `${path}${path.includes('?') ? '&' : '?'}done=${key}${anchor ? `#${anchor}` : ''}`;
}

/** `n` flags, in words. */
const flags = (n: number) => `${n} ${n === 1 ? 'flag' : 'flags'}`;

/** What a bulk action on flags says once done: `on` and `off` name the environment (the count is all the address gives). */
export function bulkNotice(action: string | null, count: number, environment = ''): string | undefined {
  switch (action) {
    case 'on': return `Switched ${flags(count)} on in ${environment}.`;
    case 'off': return `Switched ${flags(count)} off in ${environment}.`;
    case 'stale': return `Marked ${flags(count)} stale.`;
    case 'archive': return `Archived ${flags(count)}.`;
    case 'archived': return `Archived ${flags(count)}. They can be revived from the Archive.`;
    default: return undefined;
  }
}
