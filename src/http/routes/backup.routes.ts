/** The live backup: a consistent copy of the running service, streamed for `flagpole backup`. */
import { backupLines, captureBackup } from '../../actors/dumps/state-backup.js';
import { DUMP_STREAMS_AT_ONCE } from '../streams/dump-streams.js';
import { apiError, errorResponse } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';

export const backupRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/backup', tag: 'Admin', permission: 'ADMIN',
    summary: `A live backup for \`flagpole backup\`: every project at one log position, the service with them, token hashes included; newline-delimited JSON, streamed, at most ${DUMP_STREAMS_AT_ONCE} dumps or backups at once`,
    success: { status: 200, description: 'The backup file (docs/operations.md "Back up and restore"), `application/x-ndjson`' },
    errors: ['Unavailable', 'TooManyRequests'],
    handle: ({ c, registry, deps }) => {
      // One synchronous capture of the committed states: no write waits for the backup.
      const captured = captureBackup(registry);
      if (!captured.ok) throw apiError(captured.error.kind, captured.error.message);
      const body = deps.dumps.streamPieces(backupLines(captured.value));
      if (!body) {
        c.header('Retry-After', '1');
        return errorResponse(c, { kind: 'TooManyRequests', message: `${DUMP_STREAMS_AT_ONCE} dumps or backups are being written already; try again when one is done` });
      }
      return c.body(body, 200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    },
  }),
];
