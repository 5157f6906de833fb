import { Registry, collectDefaultMetrics } from 'prom-client';

export type { Registry };

export type ServiceName = 'api' | 'keeper';

/**
 * One registry per process (never prom-client's global one): every series carries
 * `service="api"|"keeper"`, plus Node's process metrics (CPU, memory, event loop, GC).
 */
export function createMetricsRegistry(service: ServiceName): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
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
