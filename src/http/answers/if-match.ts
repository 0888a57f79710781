import type { IfMatch } from '../../domain/commands.js';

/** Parses an `If-Match` header: `*` or absent means any version; a value that names no version never matches. */
export function parseIfMatch(header: string | undefined): IfMatch {
  if (header === undefined || header.trim() === '*') return undefined;
  for (const part of header.split(',')) {
    const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(part);
    if (match) return Number(match[1]);
  }
  return 'mismatch';
}

/** The ETag of a flag version. */
export const etagOf = (version: number): string => `"${version}"`;
