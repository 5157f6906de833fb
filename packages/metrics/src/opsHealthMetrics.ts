import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { OpsHealthDocument } from '@yieldrouter/schemas';

/** What the books hold that ops watches: webhook backlog and APY freshness. */
export interface ServiceBacklog {
  readonly pendingDeliveries: number;
  /** Age of the oldest delivery still to send (ms); null when none is pending. */
  readonly oldestPendingDeliveryAgeMs: number | null;
  /** Per venue: age of its newest available APY reading (ms); null when it has none. */
  readonly apyAgeMs: ReadonlyArray<{ readonly venue: string; readonly ageMs: number | null }>;
}

export interface OpsHealthSources {
  readonly read: () => Promise<OpsHealthDocument>;
  /** Whether the keeper is fit to go on (`svc_keeper_up`). */
  readonly healthy: (health: OpsHealthDocument) => boolean;
  readonly backlog?: () => Promise<ServiceBacklog>;
}

/** One read per scrape: the collectors that run together share the read under way. */
function shared<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= read().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}

type Samples = Array<[Record<string, string>, number]>;

/** A gauge set from a snapshot at each scrape (series that disappeared are dropped). */
function snapshotGauge<T>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly string[],
  snapshot: () => Promise<T>,
  samples: (value: T) => Samples,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      const values = samples(await snapshot());
      this.reset();
      for (const [labels, value] of values) this.set(labels, value);
    },
  });
}

const up = (status: string) => (status === 'up' ? 1 : 0);
const seconds = (ms: number | null | undefined) => (ms ?? 0) / 1000;

/**
 * The ops health document (and the books' backlog) as gauges, read at each scrape. The names
 * and labels are those the keeper's hand-written exposition had, so dashboards and alerts keep
 * working.
 */
export function registerOpsHealthMetrics(registry: Registry, sources: OpsHealthSources): void {
  const health = shared(sources.read);
  const gauge = (
    name: string,
    help: string,
    labels: readonly string[],
    samples: (doc: OpsHealthDocument) => Samples,
  ) => snapshotGauge(registry, name, help, labels, health, samples);
  gauge(
    'svc_keeper_up',
    'A keeper is alive and its scheduled jobs run (1), or not (0: no heartbeat, a job stalled, or the database or Redis down).',
    [],
    (doc) => [[{}, sources.healthy(doc) ? 1 : 0]],
  );
  gauge(
    'svc_keeper_job_stalled',
    'A scheduled job that nothing runs (1), or not (0).',
    ['job'],
    (doc) => doc.keeper.jobs.map((job) => [{ job: job.job }, job.stalled ? 1 : 0]),
  );
  gauge('svc_dependency_up', 'Database and Redis answer (1) or not (0).', ['dependency'], (doc) => [
    [{ dependency: 'database' }, up(doc.database.status)],
    [{ dependency: 'redis' }, up(doc.redis.status)],
  ]);
  gauge('svc_keeper_queue_jobs', 'Jobs per queue and state.', ['job', 'state'], (doc) =>
    doc.queues.flatMap((queue) =>
      (['waiting', 'active', 'delayed', 'failed'] as const).map(
        (state): [Record<string, string>, number] => [{ job: queue.job, state }, queue[state]],
      ),
    ),
  );
  gauge(
    'svc_keeper_queue_lag_seconds',
    'Age of the oldest waiting job (0 when none waits).',
    ['job'],
    (doc) => doc.queues.map((queue) => [{ job: queue.job }, seconds(queue.oldestWaitingAgeMs)]),
  );
  gauge('svc_keeper_job_failures', 'Failed runs recorded per job.', ['job'], (doc) =>
    doc.keeper.jobs.map((job) => [{ job: job.job }, job.failures]),
  );
  gauge(
    'svc_keeper_job_last_success_age_seconds',
    'Time since the last successful run (absent when none).',
    ['job'],
    (doc) =>
      doc.keeper.jobs
        .filter((job) => job.lastSuccessAgeMs !== null)
        .map((job) => [{ job: job.job }, seconds(job.lastSuccessAgeMs)]),
  );
  gauge('svc_keeper_job_last_duration_seconds', 'Duration of the last run.', ['job'], (doc) =>
    doc.keeper.jobs
      .filter((job) => job.lastRun !== null)
      .map((job) => [{ job: job.job }, seconds(job.lastRun?.durationMs)]),
  );
  const reconciled = (doc: OpsHealthDocument) =>
    Object.entries(
      doc.keeper.jobs.find((job) => job.job === 'reconciliation')?.lastRun?.counts ?? {},
    );
  gauge(
    'svc_reconciliation_drifts',
    'Drifts between the books and the chain found by the last reconciliation, per kind.',
    ['kind'],
    (doc) =>
      reconciled(doc)
        .filter(([name]) => name.startsWith('drifts.'))
        .map(([name, value]) => [{ kind: name.slice('drifts.'.length) }, value]),
  );
  gauge(
    'svc_reconciliation_above_threshold',
    'Drifts at or above the threshold in the last reconciliation (each raised an event).',
    [],
    (doc) =>
      reconciled(doc)
        .filter(([name]) => name === 'aboveThreshold')
        .map(([, value]) => [{}, value]),
  );
  if (sources.backlog) registerBacklogMetrics(registry, shared(sources.backlog));
}

function registerBacklogMetrics(registry: Registry, backlog: () => Promise<ServiceBacklog>): void {
  snapshotGauge(
    registry,
    'svc_webhook_pending_deliveries',
    'Webhook deliveries not yet delivered nor failed for good.',
    [],
    backlog,
    (value) => [[{}, value.pendingDeliveries]],
  );
  snapshotGauge(
    registry,
    'svc_webhook_oldest_pending_age_seconds',
    'Age of the oldest pending webhook delivery (0 when none is pending).',
    [],
    backlog,
    (value) => [[{}, seconds(value.oldestPendingDeliveryAgeMs)]],
  );
  snapshotGauge(
    registry,
    'svc_apy_sample_age_seconds',
    'Per venue: age of its newest available APY reading (absent when it has none).',
    ['venue'],
    backlog,
    (value) =>
      value.apyAgeMs
        .filter((entry) => entry.ageMs !== null)
        .map((entry) => [{ venue: entry.venue }, seconds(entry.ageMs)]),
  );
}
