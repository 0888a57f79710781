/**
 * docs/permissions.md carries two generated tables: which permission each route needs (from ROUTES) and
 * which permissions each kind of caller holds (from isAllowed). This test fails when either drifts from the
 * code; `UPDATE_DOCS=1 npx vitest run test/http/access/permissions-doc.test.ts` rewrites them in place.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/app.js';
import { isAllowed, type Permission, type Principal } from '../../../src/auth/permissions.js';
import { PROJECT_MEMBER, PROJECT_OWNER, PROJECT_READER, ROOT_ADMIN, ROOT_EDITOR, ROOT_VIEWER } from '../../../src/domain/roles.js';

const DOC = new URL('../../../docs/permissions.md', import.meta.url);

const PERMISSIONS: Permission[] = [
  'READ', 'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY', 'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_VARIANTS', 'UPDATE_PROJECT', 'PROJECT_USER_ACCESS',
  'APPROVE_CHANGE_REQUEST', 'APPLY_CHANGE_REQUEST', 'SKIP_CHANGE_REQUEST', 'UPDATE_SEGMENT', 'UPDATE_TAG_TYPE', 'ADMIN', 'OWN_ACCOUNT', 'CLIENT_API', 'FRONTEND_API', 'EVALUATE',
];

const user = (rootRole: number): Principal => ({ kind: 'user', user: { id: 9, name: null, email: null, username: 'u', rootRole, createdAt: '' }, tokenName: 't' });
const CALLERS: [string, Principal, number | undefined][] = [
  ['admin token', { kind: 'admin', name: 'a' }, undefined],
  ['client token', { kind: 'client', name: 'c', projects: ['*'], environment: 'development' }, undefined],
  ['frontend token', { kind: 'frontend', name: 'f', projects: ['*'], environment: 'development' }, undefined],
  ['root Admin', user(ROOT_ADMIN), undefined],
  ['root Editor (no project role)', user(ROOT_EDITOR), undefined],
  ['root Viewer (no project role)', user(ROOT_VIEWER), undefined],
  ['project Owner', user(ROOT_VIEWER), PROJECT_OWNER],
  ['project Member', user(ROOT_VIEWER), PROJECT_MEMBER],
  ['project Reader', user(ROOT_VIEWER), PROJECT_READER],
];

function routesTable(): string {
  const permission = (r: (typeof ROUTES)[number]) =>
    r.scope === 'segment' ? `\`${r.permission}\` (global segment) or \`UPDATE_PROJECT\` (in the segment's project)`
      : r.scope === 'flag' ? `\`${r.permission}\` (in the project holding the flag)`
      : r.scope === 'changes' ? `\`${r.permission}\`, and for each change the permission of its write`
      : r.scope === 'change-request-state' ? `\`${r.permission}\`, then by the state: \`APPROVE_CHANGE_REQUEST\` (approve, reject), \`APPLY_CHANGE_REQUEST\` (apply, schedule), the author or an admin (to review, cancel)`
      : `\`${r.permission}\``;
  // Console pages are listed with the API: one table of who may do what, whether by token or signed in.
  const via = (r: (typeof ROUTES)[number]) => (r.page ? (r.authentication === 'session' ? ' (console page, signed in)' : ' (console page)') : r.csrf ? ' (sign-in, browser)' : '');
  const rows = ROUTES.map((r) => `| ${r.method.toUpperCase()} | \`${r.path}\` | ${permission(r)}${via(r)} |`);
  return ['| Method | Path | Permission |', '|---|---|---|', ...rows].join('\n');
}

function callersTable(): string {
  const head = `| Caller | ${PERMISSIONS.map((p) => `\`${p}\``).join(' | ')} |`;
  const rule = `|---|${PERMISSIONS.map(() => ':-:').join('|')}|`;
  const rows = CALLERS.map(([name, principal, role]) => `| ${name} | ${PERMISSIONS.map((p) => (isAllowed(principal, p, role) ? 'yes' : '-')).join(' | ')} |`);
  return [head, rule, ...rows].join('\n');
}

/** Replaces the text between `<!-- name:begin -->` and `<!-- name:end -->`. */
function withBlock(doc: string, name: string, content: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/permissions.md lacks the markers ${begin} ... ${end}`);
  return `${doc.slice(0, from + begin.length)}\n${content}\n${doc.slice(to)}`;
}

describe('docs/permissions.md', () => {
  it('lists every route with the permission its RouteSpec declares, and what each caller holds', () => {
    const doc = readFileSync(DOC, 'utf8');
    const expected = withBlock(withBlock(doc, 'routes', routesTable()), 'callers', callersTable());
    // Regeneration mode: write the tables and check the written file.
    if (process.env['UPDATE_DOCS'] && expected !== doc) writeFileSync(DOC, expected);
    expect(readFileSync(DOC, 'utf8'), 'docs/permissions.md is out of date; run with UPDATE_DOCS=1 to regenerate its tables').toBe(expected);
  });
});
