import { Registry, collectDefaultMetrics } from 'prom-client';

export type { Registry };

/**
 * One registry per process (never prom-client's global one), with Node's process metrics (CPU,
 * memory, event loop, GC). No default labels: Prometheus adds `job` and `instance` at scrape,
 * and the keeper's gauges keep exactly the series they always had.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export interface RenderedMetrics {
  readonly contentType: string;
  readonly body: string;
}

/** The registry in the Prometheus text format (0.0.4). */
export async function renderRegistry(registry: Registry): Promise<RenderedMetrics> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
