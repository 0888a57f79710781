/** Reads of the segments from the service's committed state. */
import type { Registry } from '../actors/registry.js';
import { fail } from '../domain/errors.js';
import type { Segment } from '../domain/segment.js';
import { failed, ok, type Result } from '../domain/result.js';

/** Every segment, by id. */
export const allSegments = (registry: Registry): Segment[] => Object.values(registry.service.state.segments).sort((a, b) => a.id - b.id);

/** The segment with this id; 404 when there is none. */
export function segmentById(registry: Registry, id: number): Result<Segment> {
  const segments = registry.service.state.segments;
  const segment = Object.hasOwn(segments, String(id)) ? segments[String(id)] : undefined;
  return segment ? ok(segment) : failed(fail('NotFoundError', `Could not find segment with id ${id}`));
}
