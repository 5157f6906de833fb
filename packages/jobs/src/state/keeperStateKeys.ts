/** Where the keeper's state lives in Redis, under the keeper prefix (beside the queues). */
export function keeperStateKeys(prefix: string) {
  return {
    /** JSON KeeperHeartbeat, expiring after its `staleAfterMs`. */
    heartbeat: `${prefix}:keeper:heartbeat`,
    /** Hash: job → JSON KeeperJobRun of its last run. */
    lastRun: `${prefix}:keeper:last-run`,
    /** Hash: job → ISO time its last run started (a run is under way until it is recorded). */
    lastStart: `${prefix}:keeper:last-start`,
    /** Hash: job → ISO time of its last successful run. */
    lastSuccess: `${prefix}:keeper:last-success`,
    /** Hash: job → number of failed runs. */
    failures: `${prefix}:keeper:failures`,
  } as const;
}
