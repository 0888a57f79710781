interface Fence {
  /** The one project that may still newly reference the segment (it is moving there); null: none. */
  allow: string | null;
  /** Each project's arrivals when the fence went up: commands up to these arrived before it. */
  arrivals: Map<string, number>;
  lifted: Promise<void>;
}

/**
 * Segments being deleted (`allow` null) or moved to a project (`allow`: that project). A command that arrives
 * at another project after the fence went up (its arrival past `arrivals` of that project then) cannot newly
 * reference the segment; those that arrived before are waited for and seen by the decision.
 *
 * @example await fences.around(7, null, arrivals, () => deleteSegment(7)); // meanwhile fences.keepsOut('p', 7, n)
 */
export class SegmentFences {
  private readonly fences = new Map<number, Fence>();

  /**
   * Runs `task` with segment `id` fenced, given each project's arrivals now; the fence is lifted when
   * `task` ends, however it ends. One fence per segment at a time.
   */
  async around<T>(id: number, allow: string | null, arrivals: Map<string, number>, task: () => Promise<T>): Promise<T> {
    if (this.fences.has(id)) throw new Error(`segment ${id} is fenced already; segment writes must run in registry.segmentWrites`);
    let lift = () => {};
    this.fences.set(id, { allow, arrivals, lifted: new Promise<void>((resolve) => { lift = resolve; }) });
    try {
      return await task();
    } finally {
      this.fences.delete(id);
      lift();
    }
  }

  /** Whether segment `id` is fenced off from a command of project `projectId` that arrived `arrival`-th. */
  keepsOut(projectId: string, id: number, arrival: number | undefined): boolean {
    const fence = this.fences.get(id);
    if (fence === undefined || fence.allow === projectId) return false;
    return !(arrival !== undefined && arrival <= (fence.arrivals.get(projectId) ?? 0));
  }

  /** Resolves once the fences now around segments `ids` (any segment when absent) that keep `projectId` out are lifted. */
  async lifted(projectId: string, ids?: readonly number[]): Promise<void> {
    if (this.fences.size === 0) return;
    const fences = [...this.fences].filter(([id, fence]) => fence.allow !== projectId && (ids === undefined || ids.includes(id)));
    await Promise.all(fences.map(([, fence]) => fence.lifted));
  }
}
