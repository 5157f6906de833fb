import { Client } from 'pg';

/**
 * Channels the database notifies at COMMIT (migration 0051): an outbox event went in, a webhook
 * delivery was created.
 */
export type LedgerChannel = 'ledger_outbox' | 'ledger_webhook_deliveries' | 'ledger_receipts';

/** Stops listening. */
export type Unlisten = () => Promise<void>;

/**
 * Calls `onNotify` after each commit that notified `channel`, and once more whenever listening
 * resumes after it was cut (what was sent meanwhile is lost). Best effort: a caller keeps a
 * poll for what a lost notification would have woken.
 */
export type Listen = (channel: LedgerChannel, onNotify: () => void) => Promise<Unlisten>;

/** How long a lost listening connection waits before connecting again. */
const RECONNECT_MS = 1000;

/**
 * PostgreSQL: one dedicated connection per call (a LISTENing session cannot go back to a pool),
 * connected again after it is lost. Never throws: while the server cannot be reached, nothing is
 * heard and the caller's poll carries on.
 */
export function postgresListen(connectionString: string, log?: (message: string) => void): Listen {
  return async (channel, onNotify) => {
    let client: Client | undefined;
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    let heardBefore = false;
    const retry = (lost: Client, reason: string) => {
      if (client !== lost) return;
      client = undefined;
      lost.removeAllListeners();
      lost.on('error', () => undefined);
      void lost.end().catch(() => undefined);
      if (closed) return;
      log?.(`not listening on ${channel} (${reason}); again in ${RECONNECT_MS} ms`);
      timer = setTimeout(() => void connect(), RECONNECT_MS);
      timer.unref();
    };
    const connect = async () => {
      const next = new Client({ connectionString });
      client = next;
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify();
      });
      next.on('error', (error) => retry(next, error.message));
      next.on('end', () => retry(next, 'connection ended'));
      try {
        await next.connect();
        await next.query(`LISTEN "${channel}"`);
        if (heardBefore) onNotify();
        heardBefore = true;
      } catch (error) {
        retry(next, error instanceof Error ? error.message : String(error));
      }
    };
    await connect();
    return async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const open = client;
      client = undefined;
      if (open) {
        open.removeAllListeners();
        open.on('error', () => undefined);
        await open.end().catch(() => undefined);
      }
    };
  };
}

/** What `pgliteListen` needs from PGlite (its own LISTEN: same process, same connection). */
interface PgliteListener {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** Embedded PGlite: notifications of its one connection's commits. */
export function pgliteListen(pglite: PgliteListener): Listen {
  return async (channel, onNotify) => pglite.listen(channel, () => onNotify());
}
