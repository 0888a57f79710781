/**
 * Which older snapshots stay on disk as checkpoints of past views and fallbacks of recovery: at most `most` of
 * `seqs` (ascending, all between `from` and `to`), spread over that span. While too many remain, the one whose
 * removal leaves the smallest gap between its neighbours goes (`from`, the start a replay could use without a
 * snapshot, and `to`, the oldest of the newest snapshots, bound the ends); on a tie the older one goes. Run after
 * every snapshot, this keeps the gaps within a small factor of each other however long the log grows.
 *
 * @example spreadSnapshots([10, 20, 25, 40], 3, 0, 50) // [10, 25, 40]
 */
export function spreadSnapshots(seqs: readonly number[], most: number, from: number, to: number): number[] {
  const kept = [...seqs];
  while (kept.length > Math.max(0, most)) {
    let drop = 0;
    let smallest = Infinity;
    for (let i = 0; i < kept.length; i += 1) {
      const gap = (kept[i + 1] ?? to) - (kept[i - 1] ?? from);
      if (gap < smallest) {
        smallest = gap;
        drop = i;
      }
    }
    kept.splice(drop, 1);
  }
  return kept;
}
