/**
 * The real Node SDK (`unleash-client`) watched at every change it applies, against a writer that creates the
 * flags `<prefix>1`, `<prefix>2`, ... one after the other: an SDK that never goes back in time and never
 * misses a change knows exactly `<prefix>1..k` at every moment, with k never falling. A state from an older
 * node shows a smaller k; a missed delta or stream event shows a hole.
 */
import { startSdk, type SdkMode } from '../sdk/unleash-sdk.js';

/** A flag as the SDK holds it. */
interface SdkFeature {
  name: string;
  enabled: boolean;
  project?: string;
  strategies?: unknown[];
}

/** An SDK under watch. */
export interface SequenceWatch {
  /** The highest k seen so far. */
  highest(): number;
  /** Every moment the rule broke: the names it held, and the k it had reached before. */
  violations: string[];
  /** Changes applied (`changed` events). */
  changes(): number;
  /** The SDK's flags now, by name: whether enabled and how many strategies. */
  flags(): Map<string, { enabled: boolean; strategies: number }>;
  /** Every value of `enabled` flag `name` took in the SDK, in order (debugging a miss). */
  trail(name: string): boolean[];
  errors: string[];
  ready: Promise<void>;
  destroy(): void;
}

/**
 * Starts an SDK on `url` (the load balancer's `/api/`) in `mode` and checks the sequence `prefix` at each
 * change it applies.
 *
 * @example const watch = watchSequence(`${lb}/api/`, token, { type: 'streaming' }, 'seq-'); ...; expect(watch.violations).toEqual([]);
 */
export function watchSequence(url: string, token: string, mode: SdkMode, prefix: string, refreshInterval = 100): SequenceWatch {
  const { sdk, ready, errors } = startSdk(url, token, mode, refreshInterval);
  const pattern = new RegExp(`^${prefix.replace(/[-]/g, '\\-')}(\\d+)$`);
  const violations: string[] = [];
  let highest = 0;
  let changes = 0;
  let current: SdkFeature[] = [];
  const trails = new Map<string, boolean[]>();
  sdk.on('changed', (features) => {
    changes += 1;
    current = features as SdkFeature[];
    for (const f of current) {
      const trail = trails.get(f.name) ?? [];
      if (trail.at(-1) !== f.enabled) trail.push(f.enabled);
      trails.set(f.name, trail);
    }
    const seen = current.map((f) => pattern.exec(f.name)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => a - b);
    const k = seen.length;
    const contiguous = seen.every((n, i) => n === i + 1);
    if (!contiguous || k < highest) violations.push(`held ${prefix}{${seen.join(',')}} after reaching ${highest}`);
    highest = Math.max(highest, k);
  });
  return {
    highest: () => highest,
    violations,
    changes: () => changes,
    flags: () => new Map(current.map((f) => [f.name, { enabled: f.enabled, strategies: f.strategies?.length ?? 0 }])),
    trail: (name) => trails.get(name) ?? [],
    errors,
    ready,
    destroy: () => sdk.destroy(),
  };
}
