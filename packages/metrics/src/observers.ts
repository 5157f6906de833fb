/**
 * What the service's code reports, as plain interfaces: the HTTP layer, the engine's use cases
 * and the keeper's jobs are handed an observer (or none) and never import prom-client.
 */

/** Time spent in a use case that writes the books (seconds), per operation and outcome. */
export interface LedgerWriteObserver {
  ledgerWrite(operation: string, seconds: number, ok: boolean): void;
}

export interface HttpObserver {
  /** One answered request: `route` is the manifest path template, never the raw path. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A write answered from its Idempotency-Key record instead of being run again. */
  idempotencyReplay(operation: string): void;
  /** A request refused with 429 (`public`: by address; `keyed`: by API key). */
  rateLimited(scope: 'public' | 'keyed'): void;
}

export interface KeeperObserver {
  /** A job run finished: its outcome, duration and the counts it reported. */
  jobRun(
    job: string,
    ok: boolean,
    seconds: number,
    counts: Readonly<Record<string, number | undefined>>,
  ): void;
  /** Time a job waited in its queue before a worker took it. */
  jobLag(job: string, seconds: number): void;
  /** A leg settled (confirmed or failed on chain) `seconds` after it was submitted. */
  settlement(chain: string, outcome: string, seconds: number): void;
}
