import { SingleBar, Presets } from 'cli-progress';

/** A progress bar on standard error, or nothing when standard error is not a terminal (logs, pipes, tests). */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/**
 * Starts a progress bar (`cli-progress`) labelled `what` ("flags", "projects"): drawn only on a terminal,
 * only once the work has run for a second, so quick work prints nothing.
 *
 * @example const bar = progress('flags'); bar.update(10, 100); bar.stop();
 */
export function progress(what: string, delayMs = 1000): Progress {
  const started = Date.now();
  let bar: SingleBar | undefined;
  return {
    update(done, total) {
      if (!process.stderr.isTTY) return;
      if (!bar) {
        if (Date.now() - started < delayMs) return;
        bar = new SingleBar({ format: `{bar} {percentage}% | {value}/{total} ${what} | {duration_formatted}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
        bar.start(total, done);
        return;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      bar?.stop();
    },
  };
}
