/**
 * Seed 4.7 through the real HTTP pipeline: cloning a flag, its strategies and variants, and the errors
 * that apply. Failed requests must leave the project as it was.
 */
import { describe, expect } from 'vitest';
import { UUID, expectError, expectNoChange } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath } from '../../helpers/flags.js';


describe('POST /features/:featureName/clone (4.7)', () => {
  test('copies metadata, variants and every strategy with new ids; the clone is disabled everywhere', async ({ h }) => {
    await createFlag(h, 'src', { description: 'desc', type: 'experiment', impressionData: true });
    const rollout = await addStrategy(h, 'src', 'development', { name: 'flexibleRollout', parameters: { rollout: 30 }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    const other = await addStrategy(h, 'src', 'development', { name: 'flexibleRollout', parameters: { rollout: '10', groupId: 'elsewhere' } });
    const plain = await addStrategy(h, 'src', 'production', { name: 'default', title: 'all' });
    expect((await h.req('POST', `${flagPath('src')}/environments/development/on`)).status).toBe(200);
    const variants = await h.json('PUT', `${flagPath('src')}/variants`, [
      { name: 'blue', weightType: 'variable', weight: 500, stickiness: 'userId', payload: { type: 'string', value: 'b' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
      { name: 'red', weightType: 'fix', weight: 100 },
    ]);
    const sourceBefore = (await h.json('GET', flagPath('src'))).body;

    const r = await h.json('POST', `${flagPath('src')}/clone`, { name: 'copy' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'copy', description: 'desc', type: 'experiment', impressionData: true, project: 'default', stale: false, lastSeenAt: null });
    expect(r.body.variants).toEqual(variants.body.variants);
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);

    const copy = (await h.json('GET', flagPath('copy'))).body;
    expect(copy.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false]);
    const [dev, prod] = copy.environments;
    expect(dev.strategies).toHaveLength(2);
    expect(dev.strategies[0]).toEqual({ ...rollout, id: expect.stringMatching(UUID), parameters: { ...rollout.parameters, groupId: 'copy' } });
    expect(dev.strategies[1]).toEqual({ ...other, id: expect.stringMatching(UUID) });
    expect(prod.strategies).toEqual([{ ...plain, id: expect.stringMatching(UUID) }]);
    const ids = [...dev.strategies, ...prod.strategies].map((s: { id: string }) => s.id);
    expect(ids).not.toContain(rollout.id);
    expect(ids).not.toContain(other.id);
    expect(ids).not.toContain(plain.id);
    expect((await h.json('GET', flagPath('src'))).body).toEqual(sourceBefore);
  });

  test('replaceGroupId false keeps the source groupId', async ({ h }) => {
    await createFlag(h, 'src');
    await addStrategy(h, 'src', 'development', { name: 'flexibleRollout' });
    await h.json('POST', `${flagPath('src')}/clone`, { name: 'copy', replaceGroupId: false });
    const copy = (await h.json('GET', flagPath('copy'))).body;
    expect(copy.environments[0].strategies[0].parameters.groupId).toBe('src');
  });

  test('404 unknown source, 409 name in use (archived too), 400 archived source or bad name; nothing changes', async ({ h }) => {
    await createFlag(h, 'src');
    await createFlag(h, 'taken');
    await createFlag(h, 'old');
    await h.req('DELETE', flagPath('old'));
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', `${flagPath('nope')}/clone`, { name: 'x' }), 404, 'NotFoundError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'taken' }), 409, 'NameExistsError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'src' }), 409, 'NameExistsError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'old' }), 409, 'NameExistsError');
      expectError(await h.json('POST', `${flagPath('old')}/clone`, { name: 'fresh' }), 400, 'ArchivedFeatureError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: '..' }), 400, 'ValidationError', /"name"/);
      expectError(await h.json('POST', `${flagPath('src')}/clone`, {}), 400, 'ValidationError', /"name": is required/);
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'ok', extra: 1 }), 400, 'ValidationError', /"extra"/);
    }, 'src');
    const tag = (await h.json('GET', flagPath('src'))).headers.get('etag')!;
    await h.json('PUT', flagPath('src'), { name: 'src', description: 'moved on' });
    await expectNoChange(h, async () => expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'fresh' }, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'), 'src');
    expect((await h.json('GET', flagPath('fresh'))).status).toBe(404);
  });
});
