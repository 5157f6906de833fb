/** What a batch run reports for one item: its value, or the error that item alone gets. */
export type BatchResult<O> =
  { readonly ok: true; readonly value: O } | { readonly ok: false; readonly error: unknown };

export interface BatchQueueOptions<I> {
  /** At most this many items in one run. */
  readonly maxBatch: number;
  /** At most this many runs at once; further items wait and go together in the next run. */
  readonly maxInFlight: number;
  /**
   * Items with the same key never share a run (the later one waits for the next run), so a run
   * never carries the same work twice.
   */
  readonly keyOf?: (item: I) => string;
}

interface Waiting<I, O> {
  readonly item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Group commit for concurrent callers: each `push` waits for its own result, while the items
 * that arrive during a run go together as the next run. There is no timer: a caller alone is
 * sent at once, and under load a run carries whatever queued while the previous one ran, so
 * the per-statement and per-commit cost is paid once per run instead of once per item.
 * `run` returns one result per item, in order; a run that throws fails every item in it.
 */
export class BatchQueue<I, O> {
  private readonly waiting: Waiting<I, O>[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: (items: readonly I[]) => Promise<readonly BatchResult<O>[]>,
    private readonly options: BatchQueueOptions<I>,
  ) {}

  push(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.take();
      this.inFlight += 1;
      void this.execute(batch).finally(() => {
        this.inFlight -= 1;
        this.dispatch();
      });
    }
  }

  /** The next run: queued items in arrival order, skipping keys already in it. */
  private take(): Waiting<I, O>[] {
    const { keyOf, maxBatch } = this.options;
    const batch: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    let index = 0;
    while (index < this.waiting.length && batch.length < maxBatch) {
      const waiting = this.waiting[index] as Waiting<I, O>;
      const key = keyOf?.(waiting.item);
      if (key !== undefined && keys.has(key)) {
        index += 1;
        continue;
      }
      if (key !== undefined) keys.add(key);
      batch.push(waiting);
      this.waiting.splice(index, 1);
    }
    return batch;
  }

  private async execute(batch: readonly Waiting<I, O>[]): Promise<void> {
    let results: readonly BatchResult<O>[];
    try {
      results = await this.run(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} returned ${results.length} results`);
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => {
      const result = results[index] as BatchResult<O>;
      if (result.ok) waiting.resolve(result.value);
      else waiting.reject(result.error);
    });
  }
}
