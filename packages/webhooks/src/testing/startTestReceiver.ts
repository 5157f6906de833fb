import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parseSignatureHeader } from '../parseSignatureHeader';
import { verifyWebhookSignature } from '../verifyWebhookSignature';

/** How the receiver answers: a status code, never (hang), or not at all (port closed). */
export type TestReceiverMode = number | 'hang' | 'refuse';

/** One request the receiver got, with what the verification helper said about it. */
export interface ReceivedDelivery {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly rawBody: string;
  readonly body: unknown;
  readonly eventId: string | undefined;
  /** How many `v1=` signatures the header carried. */
  readonly signatureCount: number;
  /** verifyWebhookSignature with the receiver's keys (at the receiver's clock). */
  readonly verified: boolean;
  /** The status the receiver answered with (null for a hang). */
  readonly answered: number | null;
  /** The sender's port: one per connection, so equal ports mean a reused connection. */
  readonly remotePort: number | undefined;
}

export interface TestReceiver {
  /** `http://127.0.0.1:<port>` + path. */
  url(path?: string): string;
  readonly deliveries: readonly ReceivedDelivery[];
  /** Only the deliveries answered 2xx, in arrival order. */
  accepted(): ReceivedDelivery[];
  /** The keys signatures are checked against (any may match). */
  setKeys(keys: readonly string[]): void;
  /** Sets how it answers from now on (and ends a `hangFrom`). */
  setMode(mode: TestReceiverMode): Promise<void>;
  /**
   * Every delivery after the first `count` (counted over the receiver's life) hangs, decided
   * as it arrives: a test that must catch a delivery in flight cannot miss it by being late.
   */
  hangFrom(count: number): void;
  /** Resolves once `count` deliveries were accepted (rejects after `timeoutMs`). */
  waitForAccepted(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 for tests: it checks every delivery's signature with
 * `verifyWebhookSignature`, records it, and answers as told (a status, a hang, or a closed port
 * for "down"). It keeps its port across `refuse` → up, like a receiver that restarts.
 */
export async function startTestReceiver(
  options: {
    keys?: readonly string[];
    mode?: TestReceiverMode;
    /** The receiver's clock in ms (tests that inject a delivery clock pass the same). */
    now?: () => number;
  } = {},
): Promise<TestReceiver> {
  const now = options.now ?? Date.now;
  let keys = options.keys ?? [];
  let mode: TestReceiverMode = options.mode ?? 204;
  let hangAfter: number | undefined;
  const deliveries: ReceivedDelivery[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<() => void> = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const header = req.headers['x-svc-signature'];
    const signature = typeof header === 'string' ? header : undefined;
    const parsed = parseSignatureHeader(signature);
    const verified =
      keys.length > 0 &&
      (await verifyWebhookSignature({ header: signature, rawBody, key: keys, now: now() })).ok;
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const hangs = hangAfter !== undefined && deliveries.length >= hangAfter;
    const answered = typeof mode === 'number' && !hangs ? mode : null;
    const eventId = req.headers['x-svc-event-id'];
    deliveries.push({
      path: req.url ?? '/',
      headers: req.headers,
      rawBody,
      body,
      eventId: typeof eventId === 'string' ? eventId : undefined,
      signatureCount: parsed.ok ? parsed.signatures.length : 0,
      verified,
      answered,
      remotePort: req.socket.remotePort,
    });
    waiters.splice(0).forEach((wake) => wake());
    if (answered === null) return; // hang: never answer
    if (answered >= 300 && answered < 400) res.setHeader('Location', '/redirected');
    res.statusCode = answered;
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      sockets.forEach((socket) => socket.destroy());
    });
  const port = await listen(0);
  if (mode === 'refuse') await stop();

  const accepted = () =>
    deliveries.filter(
      (delivery) =>
        delivery.answered !== null && delivery.answered >= 200 && delivery.answered < 300,
    );
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    deliveries,
    accepted,
    setKeys: (next) => {
      keys = next;
    },
    hangFrom: (count) => {
      hangAfter = count;
    },
    setMode: async (next) => {
      mode = next;
      hangAfter = undefined;
      if (next === 'refuse') await stop();
      else if (!server.listening) await listen(port);
    },
    waitForAccepted: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver: ${accepted().length}/${count} accepted in time`)),
          timeoutMs,
        );
        const check = () => {
          if (accepted().length >= count) {
            clearTimeout(timer);
            resolve(accepted());
          } else {
            waiters.push(check);
          }
        };
        check();
      }),
    close: stop,
  };
}
