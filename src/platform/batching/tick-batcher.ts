/**
 * Gathers the calls made within one turn of the event loop into one batch (at most `maxBatch`), run
 * once at the end of the turn (setImmediate): N concurrent requests that each need a statement pay
 * for one. Each call gets its own item's result; a failed batch fails each of its calls.
 */
export class TickBatcher<I, O> {
  private pending: { item: I; resolve: (result: O) => void; reject: (error: unknown) => void }[] = [];

  constructor(
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
    private readonly maxBatch = 100,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.run(batch.map((entry) => entry.item)).then(
      (results) => batch.forEach((entry, i) => entry.resolve(results[i])),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  }
}
