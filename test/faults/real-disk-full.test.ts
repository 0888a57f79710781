/**
 * A real full disk, not an injected one: the data directory on a 4 MiB tmpfs, filled up by another file.
 * LevelDB tears its log file on ENOSPC and goes on accepting writes after it that its recovery would drop;
 * the store reopens the database after a failed write, so a write acknowledged once the disk has room again
 * survives a restart. Needs root (to mount the tmpfs); skipped elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test as base } from 'vitest';
import { expectError } from '../helpers/expect.js';
import { createFlag, featuresPath, flagPath } from '../helpers/flags.js';
import { harness, type Harness } from '../helpers/harness.js';

const canMount = process.platform === 'linux' && process.getuid?.() === 0;

/** A small tmpfs, mounted for the test and unmounted after it. */
const test = base.extend<{ disk: string }>({
  disk: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-small-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir]);
    try {
      await use(dir);
    } finally {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

/** Fills the disk with one file; returns a function that removes it. */
function fill(disk: string): () => void {
  const filler = join(disk, 'filler');
  try {
    writeFileSync(filler, Buffer.alloc(8 * 1024 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return () => rmSync(filler, { force: true });
}

describe.skipIf(!canMount)('a real full disk (tmpfs)', () => {
  test('writes answer 503 while it is full; once it has room, a write is acknowledged and survives a restart', async ({ disk }) => {
    const h: Harness = await harness({}, join(disk, 'data'));
    try {
      await createFlag(h, 'before');
      const free = fill(disk);
      let refused = 0;
      // Large descriptions fill LevelDB's log until the disk refuses it.
      for (let i = 0; i < 40; i += 1) {
        const r = await h.json('POST', featuresPath(), { name: `big-${i}`, description: 'x'.repeat(9_000) });
        if (r.status === 503) {
          expectError(r, 503, 'StorageUnavailable');
          refused += 1;
        } else expect(r.status).toBe(201);
      }
      expect(refused).toBeGreaterThan(0);
      expect((await h.json('GET', '/health', undefined, { token: null })).body.status).toBe('degraded');
      expect((await h.json('GET', flagPath('before'))).status).toBe(200);
      // Reads that go to LevelDB (history, dumps) too, after one more write has tried the disk as the store's
      // probe does (a write after a failure first tries to close and reopen the database), rather than a wait
      // for the probe's timer.
      expectError(await h.json('POST', featuresPath(), { name: 'while-full', description: 'x'.repeat(9_000) }), 503, 'StorageUnavailable');
      expect((await h.json('GET', '/api/admin/events?project=default')).status).toBe(200);
      expect((await h.req('GET', '/api/admin/state?project=default')).status).toBe(200);
      const accepted = (await h.json('GET', featuresPath())).body.features.map((f: { name: string }) => f.name);

      free();
      const after = await h.json('POST', featuresPath(), { name: 'after' });
      expect(after.status).toBe(201);
      await h.restart();
      const names = (await h.json('GET', featuresPath())).body.features.map((f: { name: string }) => f.name);
      // Every acknowledged write is there, the one after the disk came back included; nothing refused is.
      expect(names).toEqual([...accepted, 'after']);
    } finally {
      await h.close();
    }
  });
});
