import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { test as it } from '../../helpers/fixtures.js';
import { createProject, createUser, grant, membersOf, MEMBER, OWNER, personalToken, READER } from './access-fixtures.js';

describe('access data survives a restart', () => {
  it.for([['after a clean close (snapshot)', 'close'], ['after a crash (log replay)', 'crash']] as const)(
    'keeps users, memberships and tokens, and revocations, %s',
    async ([_label, how], { openHarness }) => {
      let h = await openHarness();
      const ada = await createUser(h, { email: 'ada@example.com', name: 'Ada', rootRole: 'Editor' });
      const bob = await createUser(h, { username: 'bob' });
      const gone = await createUser(h, { username: 'gone' });
      await createProject(h, 'web');
      await grant(h, 'web', ada, OWNER);
      await grant(h, 'web', bob, READER);
      await grant(h, 'web', gone, MEMBER);
      expect((await h.json('DELETE', `/api/admin/user-admin/${gone}`)).status).toBe(200);
      const adaToken = await personalToken(h, ada);
      const revoked = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'old', type: 'admin' });
      const kept = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'kept', type: 'admin' });
      expect((await h.req('DELETE', `/api/admin/api-tokens/${revoked.body.id}`)).status).toBe(200);
      const usersBefore = (await h.json('GET', '/api/admin/user-admin')).body;
      const tokensBefore = (await h.json('GET', '/api/admin/api-tokens')).body;

      if (how === 'close') {
        await h.restart();
      } else {
        // A copy taken while the service runs is what a crash leaves: the synced log, no snapshot at close.
        const copy = mkdtempSync(join(tmpdir(), 'flagpole-crash-'));
        cpSync(h.dataDir, copy, { recursive: true });
        await h.close();
        h = await openHarness({}, copy);
      }

      expect((await h.json('GET', '/api/admin/user-admin')).body).toEqual(usersBefore);
      expect((await h.json('GET', '/api/admin/api-tokens')).body).toEqual(tokensBefore);
      expect(await membersOf(h, 'web')).toEqual({ 1: OWNER, [ada]: OWNER, [bob]: READER });
      expect((await h.json('GET', '/api/admin/projects/web/access', undefined, { token: adaToken })).status).toBe(200);
      expect((await h.json('PUT', `/api/admin/projects/web/users/${bob}/roles/${MEMBER}`, undefined, { token: adaToken })).status).toBe(200);
      expect((await h.json('GET', '/api/admin/roles', undefined, { token: kept.body.secret })).status).toBe(200);
      expect((await h.json('GET', '/api/admin/roles', undefined, { token: revoked.body.secret })).status).toBe(401);
      // The next user id is not reused after a restart.
      expect(await createUser(h, { username: 'new' })).toBe(gone + 1);
    },
  );
});

describe('AUTH_TYPE=none', () => {
  it('lets every request through as an admin, with or without a header', async ({ openHarness }) => {
    const h = await openHarness({ AUTH_TYPE: 'none' });
    expect((await h.json('GET', '/api/admin/user-admin', undefined, { token: null })).status).toBe(200);
    expect((await h.json('POST', '/api/admin/user-admin', { username: 'x' }, { token: 'garbage' })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/projects/default/users/2/roles/6', undefined, { token: null })).status).toBe(200);
  });
});

describe('without AUTH_TYPE=none', () => {
  it('answers 401 AuthenticationRequired for a missing or unknown token', async ({ h }) => {
    for (const token of [null, 'nope', `${'x'.repeat(600)}`]) {
      const res = await h.json('GET', '/api/admin/roles', undefined, { token });
      expect(res.status).toBe(401);
      expect(res.body.name).toBe('AuthenticationRequired');
    }
  });
});
