import type { CctpFeeSchedule, ReadCctpFeesReturnType } from './readCctpFee';

export interface CreateCctpFeeCacheParameters {
  /** How long a lane's fee schedule is kept (`SVC_CCTP_FEE_TTL_MS`); 0 reads every time. */
  readonly ttlMs: number;
  /** Reads one lane's schedule from the attestation service. */
  readonly read: (
    sourceDomain: number,
    destinationDomain: number,
  ) => Promise<ReadCctpFeesReturnType>;
  /** Clock in ms (tests). */
  readonly now?: () => number;
}

export interface CctpFeeCache {
  /** The lane's fee schedule, at most `ttlMs` old, or why it could not be read. */
  read(sourceDomain: number, destinationDomain: number): Promise<ReadCctpFeesReturnType>;
}

/**
 * The CCTP fee schedule per lane (source domain, destination domain), kept `ttlMs` from when it
 * was asked: one answer lists every finality threshold, so one entry serves both speeds.
 * Concurrent misses on a lane share one request; a failed read is not kept (the next one asks
 * again).
 *
 * @example
 * const fees = createCctpFeeCache({ ttlMs: 30_000, read: (s, d) => readCctpFees({ ...iris, sourceDomain: s, destinationDomain: d }) });
 * await fees.read(6, 3); // one request; the same answer for 30 s
 */
export function createCctpFeeCache(parameters: CreateCctpFeeCacheParameters): CctpFeeCache {
  const now = parameters.now ?? Date.now;
  const kept = new Map<string, { readonly fees: CctpFeeSchedule; readonly at: number }>();
  const pending = new Map<string, Promise<ReadCctpFeesReturnType>>();
  return {
    read(sourceDomain, destinationDomain) {
      if (parameters.ttlMs <= 0) return parameters.read(sourceDomain, destinationDomain);
      const key = `${sourceDomain}:${destinationDomain}`;
      const entry = kept.get(key);
      if (entry && now() - entry.at < parameters.ttlMs) {
        return Promise.resolve({ status: 'ok', fees: entry.fees });
      }
      const waiting = pending.get(key);
      if (waiting) return waiting;
      const at = now();
      const reading = parameters
        .read(sourceDomain, destinationDomain)
        .then((answer) => {
          if (answer.status === 'ok') kept.set(key, { fees: answer.fees, at });
          return answer;
        })
        .finally(() => pending.delete(key));
      pending.set(key, reading);
      return reading;
    },
  };
}
