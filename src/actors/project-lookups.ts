import type { ProjectLookups } from '../domain/context.js';
import type { ServiceState } from '../domain/service-state.js';
import type { SegmentFences } from './segment-fences.js';

/**
 * What project `projectId` looks up in the service while deciding: the committed segments (minus those
 * `fences` keep from it: `'changing'`), strategy definitions and context fields. `service` is read at each
 * lookup, so a decision sees the service's last committed state.
 *
 * @example projectModel('p', limits, projectLookups('p', () => registry.service.state, fences))
 */
export function projectLookups(projectId: string, service: () => ServiceState, fences: SegmentFences): ProjectLookups {
  return {
    segment: (id, arrival) => {
      if (fences.keepsOut(projectId, id, arrival)) return 'changing';
      const segments = service().segments;
      return Object.hasOwn(segments, String(id)) ? segments[String(id)] : undefined;
    },
    storedSegment: (id) => {
      const segments = service().segments;
      return Object.hasOwn(segments, String(id)) ? segments[String(id)] : undefined;
    },
    strategyDefinition: (name) => service().strategyDefinitions.find((d) => d.name === name),
    contextField: (name) => service().contextFields.find((f) => f.name === name),
  };
}
