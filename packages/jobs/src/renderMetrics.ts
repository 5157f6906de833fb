import type { OpsHealthDocument } from '@yieldrouter/schemas';
import { keeperIsHealthy } from './state/readOpsHealth';

const label = (value: string) => value.replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/** The ops health document as Prometheus text (exposition format 0.0.4). */
export function renderMetrics(health: OpsHealthDocument): string {
  const lines: string[] = [];
  const gauge = (name: string, help: string, samples: Array<[Record<string, string>, number]>) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    for (const [labels, value] of samples) {
      const text = Object.entries(labels)
        .map(([key, entry]) => `${key}="${label(entry)}"`)
        .join(',');
      lines.push(`${name}${text ? `{${text}}` : ''} ${value}`);
    }
  };
  const up = (status: string) => (status === 'up' ? 1 : 0);
  gauge(
    'svc_keeper_up',
    'A keeper is alive and its scheduled jobs run (1), or not (0: no heartbeat, a job stalled, or the database or Redis down).',
    [[{}, keeperIsHealthy(health) ? 1 : 0]],
  );
  gauge(
    'svc_keeper_job_stalled',
    'A scheduled job that nothing runs (1), or not (0).',
    health.keeper.jobs.map((job) => [{ job: job.job }, job.stalled ? 1 : 0]),
  );
  gauge('svc_dependency_up', 'Database and Redis answer (1) or not (0).', [
    [{ dependency: 'database' }, up(health.database.status)],
    [{ dependency: 'redis' }, up(health.redis.status)],
  ]);
  gauge(
    'svc_keeper_queue_jobs',
    'Jobs per queue and state.',
    health.queues.flatMap((queue) =>
      (['waiting', 'active', 'delayed', 'failed'] as const).map(
        (state): [Record<string, string>, number] => [{ job: queue.job, state }, queue[state]],
      ),
    ),
  );
  gauge(
    'svc_keeper_queue_lag_seconds',
    'Age of the oldest waiting job (0 when none waits).',
    health.queues.map((queue) => [{ job: queue.job }, (queue.oldestWaitingAgeMs ?? 0) / 1000]),
  );
  gauge(
    'svc_keeper_job_failures',
    'Failed runs recorded per job.',
    health.keeper.jobs.map((job) => [{ job: job.job }, job.failures]),
  );
  gauge(
    'svc_keeper_job_last_success_age_seconds',
    'Time since the last successful run (absent when none).',
    health.keeper.jobs
      .filter((job) => job.lastSuccessAgeMs !== null)
      .map((job) => [{ job: job.job }, (job.lastSuccessAgeMs ?? 0) / 1000]),
  );
  gauge(
    'svc_keeper_job_last_duration_seconds',
    'Duration of the last run.',
    health.keeper.jobs
      .filter((job) => job.lastRun !== null)
      .map((job) => [{ job: job.job }, (job.lastRun?.durationMs ?? 0) / 1000]),
  );
  const reconciled = health.keeper.jobs.find((job) => job.job === 'reconciliation')?.lastRun;
  const counts = Object.entries(reconciled?.counts ?? {});
  const byKind = (prefix: string): Array<[Record<string, string>, number]> =>
    counts
      .filter(([name]) => name.startsWith(prefix))
      .map(([name, value]) => [{ kind: name.slice(prefix.length) }, value]);
  gauge(
    'svc_reconciliation_drifts',
    'Drifts between the books and the chain found by the last reconciliation, per kind.',
    byKind('drifts.'),
  );
  gauge(
    'svc_reconciliation_above_threshold',
    'Drifts at or above the threshold in the last reconciliation (each raised an event).',
    counts.filter(([name]) => name === 'aboveThreshold').map(([, value]) => [{}, value]),
  );
  return `${lines.join('\n')}\n`;
}
