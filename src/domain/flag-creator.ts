import type { Flag } from './types.js';

/** How a command's sender is named when a user sent it (`user:3`); API tokens are named otherwise. */
const USER_LABEL = /^user:(\d+)$/;

/**
 * The id of the user who created the flag; undefined when an API token created it, or it was created before
 * creators were recorded.
 *
 * @example creatorUserId({ ...flag, createdBy: 'user:3' }) // 3
 */
export function creatorUserId(flag: Pick<Flag, 'createdBy'>): number | undefined {
  const id = USER_LABEL.exec(flag.createdBy ?? '')?.[1];
  return id === undefined ? undefined : Number(id);
}
