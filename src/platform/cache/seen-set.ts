/**
 * Keys already handled by this process, so that a write made once per key (e.g. `INSERT … ON
 * CONFLICT DO NOTHING`) is made once, not on every request. Bounded: when full it starts over,
 * which costs one repeated, idempotent write per key.
 */
export class SeenSet {
  private readonly keys = new Set<string>();

  constructor(private readonly maxKeys: number) {}

  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(key: string): void {
    if (this.keys.size >= this.maxKeys) this.keys.clear();
    this.keys.add(key);
  }
}
