/** Reads of the segments from the service's committed state. */
import type { Registry } from '../actors/registry.js';
import { segmentWithId, type Segment } from '../domain/segment.js';
import type { Result } from '../domain/result.js';

/** Every segment, by id. */
export const allSegments = (registry: Registry): Segment[] => Object.values(registry.service.state.segments).sort((a, b) => a.id - b.id);

/** The segment with this id; 404 when there is none. */
export const segmentById = (registry: Registry, id: number): Result<Segment> => segmentWithId(registry.service.state.segments, id);
