/**
 * A test seam for disk faults: the store consults its {@link WriteGate} before every write reaches LevelDB,
 * so a test can make writes fail as a full or failing disk would (`ENOSPC`, `EIO`) or hang as a stuck one
 * does, and then heal the disk, without touching the real files. Production stores have no gate.
 */

/** Consulted before each write: resolves to let it through, rejects to fail it, or waits (a stuck disk). */
export interface WriteGate {
  beforeWrite(): Promise<void> | undefined;
}

/** The error codes a test can inject; what Node's `fs` reports for a full disk and an I/O failure. */
export type DiskErrorCode = 'ENOSPC' | 'EIO';

type Mode =
  | { kind: 'healthy' }
  | { kind: 'failing'; code: DiskErrorCode }
  | { kind: 'hanging'; released: Promise<void>; release: () => void; thenFail: DiskErrorCode | null };

/**
 * Injected disk faults, for tests (`Registry.open({ writeGate })`).
 *
 * @example
 * const faults = new DiskFaults();
 * faults.fail('ENOSPC');   // every write now fails like a full disk
 * faults.hang();           // writes wait until heal(), then complete
 * faults.heal();           // writes go through again (hung ones complete, or fail if hang({thenFail}))
 */
export class DiskFaults implements WriteGate {
  private mode: Mode = { kind: 'healthy' };
  /** Writes that met a fault (failed or were held), for assertions. */
  faulted = 0;

  /** Every write from now on fails with `code`. */
  fail(code: DiskErrorCode): void {
    this.releaseHanging();
    this.mode = { kind: 'failing', code };
  }

  /** Every write from now on waits until {@link heal}; then it completes, or fails with `thenFail` when given. */
  hang(options: { thenFail?: DiskErrorCode } = {}): void {
    this.releaseHanging();
    let release = () => {};
    const released = new Promise<void>((resolve) => { release = resolve; });
    this.mode = { kind: 'hanging', released, release, thenFail: options.thenFail ?? null };
  }

  /** The disk works again; writes held by {@link hang} go on. */
  heal(): void {
    this.releaseHanging();
    this.mode = { kind: 'healthy' };
  }

  beforeWrite(): Promise<void> | undefined {
    const mode = this.mode;
    if (mode.kind === 'healthy') return undefined;
    this.faulted += 1;
    if (mode.kind === 'failing') return Promise.reject(diskError(mode.code));
    return mode.released.then(() => {
      if (mode.thenFail) throw diskError(mode.thenFail);
    });
  }

  private releaseHanging(): void {
    if (this.mode.kind === 'hanging') this.mode.release();
  }
}

/** An error shaped as Node's `fs` errors are: `code`, `errno`-style message. */
export function diskError(code: DiskErrorCode): NodeJS.ErrnoException {
  const text = code === 'ENOSPC' ? 'no space left on device' : 'i/o error';
  return Object.assign(new Error(`${code}: ${text}, write`), { code });
}
