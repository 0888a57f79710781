import type { Writable } from 'node:stream';
import { SingleBar, Presets } from 'cli-progress';

/** A progress bar on standard error, or nothing when standard error is not a terminal (logs, pipes, tests). */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/**
 * A progress bar (`cli-progress`) labelled `what` ("flags", "projects") on `stream` (the run's standard error),
 * drawn on a terminal only, and only once the work has run for `delayMs`, so quick work prints nothing; from
 * then on it shows the last update even when the next one is long in coming (one large project being written).
 *
 * @example const bar = progress('flags', run.stderr); bar.update(10, 100); bar.stop();
 */
export function progress(what: string, stream: Writable & { isTTY?: boolean }, delayMs = 1000): Progress {
  let last: [number, number] | undefined;
  let bar: SingleBar | undefined;
  let stopped = false;
  const draw = () => {
    if (stopped || bar || !last || !stream.isTTY) return;
    bar = new SingleBar({ format: `{bar} {percentage}% | {value}/{total} ${what} | {duration_formatted}`, stream: stream as NodeJS.WritableStream, hideCursor: true }, Presets.shades_classic);
    bar.start(last[1], last[0]);
  };
  const timer = setTimeout(draw, delayMs);
  timer.unref();
  return {
    update(done, total) {
      last = [done, total];
      if (!bar) return;
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      bar?.stop();
    },
  };
}
