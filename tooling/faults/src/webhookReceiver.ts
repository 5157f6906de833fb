import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { verifyWebhookSignature } from '@yieldrouter/webhooks';

/**
 * How the receiver answers: 200; 500; it takes the request and never answers (the sender's
 * timeout ends it); or it refuses the connection (nothing listens).
 */
export type ReceiverMode = 'ok' | 'error500' | 'hang' | 'refuse';

/** One request the receiver took. */
export interface ReceivedDelivery {
  readonly eventId: string;
  readonly type: string;
  readonly at: number;
  readonly answered: number | 'no answer';
  /** The signature checked against the subscription's key over the raw body. */
  readonly signatureValid: boolean;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: readonly ReceivedDelivery[];
  /** The subscription's hmacKey, once it is created (signatures are checked with it). */
  setKey(key: string): void;
  setMode(mode: ReceiverMode): Promise<void>;
  /** How long each answer takes (a slow receiver keeps deliveries in flight). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

/** A webhook endpoint on a loopback port that records every delivery and can misbehave. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const sockets = new Set<Socket>();
  let key = '';
  let mode: ReceiverMode = 'ok';
  let delayMs = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['x-svc-signature'];
      const answer = mode === 'ok' ? 200 : mode === 'error500' ? 500 : ('no answer' as const);
      void verifyWebhookSignature({
        header: typeof header === 'string' ? header : undefined,
        rawBody,
        key: key || 'unset',
      }).then((verified) => {
        let eventId = '';
        let type = '';
        try {
          const body = JSON.parse(rawBody) as { id?: string; type?: string };
          eventId = body.id ?? '';
          type = body.type ?? '';
        } catch {
          // Recorded with empty id: counts as a bad delivery.
        }
        received.push({
          eventId,
          type,
          at: Date.now(),
          answered: answer,
          signatureValid: verified.ok,
        });
        if (answer === 'no answer') return;
        setTimeout(() => {
          res.writeHead(answer, { 'content-type': 'text/plain' });
          res.end(answer === 200 ? 'ok' : 'receiver error');
        }, delayMs);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    setKey: (value) => {
      key = value;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    setMode: async (next) => {
      const wasRefusing = mode === 'refuse';
      mode = next;
      if (next === 'refuse') await stop();
      else if (wasRefusing) await listen(port);
    },
    close: stop,
  };
}
