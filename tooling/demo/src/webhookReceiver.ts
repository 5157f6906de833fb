// The demo's webhook receiver: a plain HTTP server on 127.0.0.1 that does what a customer's
// receiver does with the SDK's helper — verify `X-SVC-Signature` over the raw body with the
// subscription's key, answer 204, and 401 when the signature does not verify (the API then
// records the delivery as failed and retries it). Private and http: targets are accepted only
// because the demo stack sets SVC_WEBHOOK_ALLOW_PRIVATE_URLS (refused in production).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER, verifyWebhookSignature } from '@yieldrouter/sdk/webhooks';

export interface ReceivedWebhook {
  readonly eventId: string | undefined;
  readonly eventType: string | undefined;
  readonly verified: boolean;
  readonly answered: number;
}

export interface WebhookReceiver {
  /** Where the subscription points: `http://127.0.0.1:<port>/hooks`. */
  readonly url: string;
  /** Every delivery so far, in arrival order. */
  readonly received: readonly ReceivedWebhook[];
  /** The subscription's hmacKey (the API shows it once, in the create answer). */
  setKey(key: string): void;
  close(): Promise<void>;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let key: string | undefined;
  const received: ReceivedWebhook[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const verified =
      key !== undefined &&
      (
        await verifyWebhookSignature({
          header: header(req, WEBHOOK_SIGNATURE_HEADER),
          rawBody,
          key,
        })
      ).ok;
    const answered = verified ? 204 : 401;
    received.push({
      eventId: header(req, 'X-SVC-Event-Id'),
      eventType: header(req, 'X-SVC-Event-Type'),
      verified,
      answered,
    });
    res.statusCode = answered;
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    setKey: (next) => {
      key = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
