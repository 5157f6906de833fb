import type { Metric, Registry } from 'prom-client';

interface Series {
  readonly labels: Readonly<Record<string, string>>;
  /** Per bucket (not cumulative), plus one for +Inf. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/**
 * A histogram for the request path: an observation is one Map lookup, a bucket search and
 * three additions (prom-client's own children validate and hash their labels on every
 * observation). It is registered in a prom-client registry, which formats it like any other
 * histogram at a scrape.
 */
export class RequestHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** Adds `value` to the series of `key`; false when there is none yet (see `start`). */
  observe(key: string, value: number): boolean {
    const series = this.series.get(key);
    if (series === undefined) return false;
    let bucket = 0;
    while (bucket < this.buckets.length && value > (this.buckets[bucket] as number)) bucket += 1;
    series.counts[bucket] = (series.counts[bucket] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
    return true;
  }

  /** Starts the series of `key` with its labels, then adds `value` to it. */
  start(key: string, labels: Readonly<Record<L, string>>, value: number): void {
    const ordered = Object.fromEntries(this.labelNames.map((name) => [name, labels[name]]));
    const counts = new Array<number>(this.buckets.length + 1).fill(0);
    this.series.set(key, { labels: ordered, counts, sum: 0, count: 0 });
    this.observe(key, value);
  }

  reset(): void {
    this.series.clear();
  }

  /** What prom-client's registry reads at a scrape: the same shape as its own histograms. */
  get() {
    const values: Array<{
      labels: Record<string, string | number>;
      value: number;
      metricName: string;
    }> = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, index) => {
        cumulative += series.counts[index] ?? 0;
        values.push({
          labels: { le, ...series.labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      });
      values.push({
        labels: { le: '+Inf', ...series.labels },
        value: series.count,
        metricName: `${this.name}_bucket`,
      });
      values.push({
        labels: { ...series.labels },
        value: series.sum,
        metricName: `${this.name}_sum`,
      });
      values.push({
        labels: { ...series.labels },
        value: series.count,
        metricName: `${this.name}_count`,
      });
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    };
  }
}
