import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  concatHex,
  createPublicClient,
  decodeEventLog,
  http,
  keccak256,
  numberToHex,
  parseAbi,
  sliceHex,
  toEventSelector,
  toHex,
} from 'viem';
import type { Address, Hex } from 'viem';
import { attestCctpMessage } from '../evm/deployCctpPair';

/** How the fake answers: like Circle's attestation service (Iris v2), or one of its faults. */
export type IrisFakeMode =
  /** Attests every burn it can read from the source node. */
  | 'ok'
  /** `status: pending_confirmations` and `attestation: "PENDING"`, forever. */
  | 'pending'
  /** HTTP 503 with an error body. */
  | 'http_503'
  /** HTTP 200 with JSON of the wrong shape. */
  | 'malformed'
  /** HTTP 429 with a `Retry-After` header (`setRetryAfter`), as Circle answers past its limit. */
  | 'rate_limited';

/** One EVM domain the fake attests: the node to read burns from and the transmitter emitting them. */
export interface IrisFakeEvmDomain {
  readonly domain: number;
  readonly rpcUrl: string;
  readonly messageTransmitter: Address;
}

/** A non-EVM domain: how to tell its transaction ids and read the messages one of them sent. */
export interface IrisFakeSource {
  readonly domain: number;
  /** Whether `txId` has the form of this chain's transaction ids (else the fake answers 400). */
  isTxId(txId: string): boolean;
  /** The v2 messages the transaction sent, in order; undefined when the chain has no such one. */
  readMessages(txId: string): Promise<readonly Hex[] | undefined>;
}

export type IrisFakeDomain = IrisFakeEvmDomain | IrisFakeSource;

const isSource = (domain: IrisFakeDomain): domain is IrisFakeSource => 'readMessages' in domain;

export interface StartIrisFakeParameters {
  readonly domains: readonly IrisFakeDomain[];
  /** The fast-transfer fee in bps the fee endpoint publishes (finality 1000); standard is 0. */
  readonly fastFeeBps?: number;
}

export interface IrisFake {
  readonly url: string;
  /** Every request's path and query, in order. */
  readonly requests: readonly string[];
  /** How many requests it answered, in all and by endpoint (fees, messages). */
  counts(): { readonly all: number; readonly fees: number; readonly messages: number };
  setMode(mode: IrisFakeMode): void;
  /**
   * The fast fee (bps) it publishes and executes from now on: a burn attested again then carries
   * the new fee (within its maxFee), as a message Circle attests again may.
   */
  setFastFeeBps(bps: number): void;
  /** The `Retry-After` a 429 carries: seconds or an HTTP date; null sends none. Default 300. */
  setRetryAfter(value: string | null): void;
  close(): Promise<void>;
}

const MESSAGE_SENT = parseAbi(['event MessageSent(bytes message)']);
const MESSAGE_SENT_TOPIC = toEventSelector('MessageSent(bytes)');
// v2 message layout (bytes): nonce 12..44, minFinalityThreshold 140..144, executed 144..148,
// body 148..; in the burn body: maxFee 132..164, feeExecuted 164..196.
const NONCE = [12, 44] as const;
const BODY = 148;

/**
 * An Iris-shaped attestation service over the bed nodes: `GET /v2/messages/{sourceDomain}
 * ?transactionHash=` reads the transaction's `MessageSent` logs from the source node (a non-EVM
 * source reads its messages itself: `solanaIrisSource`, `suiIrisSource`), assigns each message its nonce and
 * executed finality (and the fast fee, within the burn's maxFee) and signs keccak256(message)
 * with the bed attester (the key the bed transmitters trust);
 * `GET /v2/burn/USDC/fees/{source}/{destination}` publishes the fee per finality threshold.
 *
 * @example
 * const iris = await startIrisFake({ domains: [{ domain: 6, rpcUrl, messageTransmitter }] });
 */
export async function startIrisFake({
  domains,
  fastFeeBps: initialFastFeeBps = 1,
}: StartIrisFakeParameters): Promise<IrisFake> {
  let fastFeeBps = initialFastFeeBps;
  let mode: IrisFakeMode = 'ok';
  let retryAfter: string | null = '300';
  const requests: string[] = [];
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function attest(domain: IrisFakeDomain, txId: string) {
    if (isSource(domain)) {
      const sent = await domain.readMessages(txId);
      if (!sent) return undefined;
      const id = toHex(txId);
      return Promise.all(
        sent.map((message, index) =>
          signed(message, keccak256(concatHex([id, numberToHex(index, { size: 4 })]))),
        ),
      );
    }
    const hash = txId as Hex;
    const client = createPublicClient({ transport: http(domain.rpcUrl, { retryCount: 0 }) });
    const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
    if (!receipt) return undefined;
    const logs = receipt.logs.filter(
      (log) => log.address.toLowerCase() === domain.messageTransmitter.toLowerCase(),
    );
    const messages = [];
    for (const log of logs) {
      const [topic] = log.topics;
      if (topic !== MESSAGE_SENT_TOPIC) continue;
      const event = decodeEventLog({
        abi: MESSAGE_SENT,
        eventName: 'MessageSent',
        data: log.data,
        topics: [topic],
        strict: true,
      });
      const message = (event.args as { message?: Hex } | undefined)?.message;
      const nonce = keccak256(concatHex([hash, numberToHex(log.logIndex ?? 0, { size: 4 })]));
      if (message) messages.push(await signed(message, nonce));
    }
    return messages;
  }

  async function signed(source: Hex, nonce: Hex) {
    const minFinality = Number(BigInt(sliceHex(source, 140, 144)));
    const executed = minFinality <= 1000 ? 1000 : 2000;
    const body = sliceHex(source, BODY);
    const amount = BigInt(sliceHex(body, 68, 100));
    const maxFee = BigInt(sliceHex(body, 132, 164));
    const wanted = executed === 1000 ? (amount * BigInt(fastFeeBps) + 9_999n) / 10_000n : 0n;
    const fee = wanted < maxFee ? wanted : maxFee;
    const message = concatHex([
      sliceHex(source, 0, NONCE[0]),
      nonce,
      sliceHex(source, NONCE[1], 144),
      numberToHex(executed, { size: 4 }),
      sliceHex(body, 0, 164),
      numberToHex(fee, { size: 32 }),
      sliceHex(body, 196),
    ]);
    const signature = await attestCctpMessage(message);
    return {
      message,
      attestation: signature,
      eventNonce: nonce,
      cctpVersion: 2,
      status: 'complete',
    };
  }

  async function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${url.pathname}${url.search}`);
    if (mode === 'rate_limited') {
      res.writeHead(429, {
        'content-type': 'application/json',
        ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
      });
      return res.end(JSON.stringify({ error: 'Too Many Requests' }));
    }
    if (mode === 'http_503') return send(res, 503, { error: 'Service Unavailable' });
    if (mode === 'malformed') return send(res, 200, { messages: 'soon' });
    const fees = /^\/v2\/burn\/USDC\/fees\/(\d+)\/(\d+)$/.exec(url.pathname);
    if (fees) {
      return send(res, 200, [
        { finalityThreshold: 1000, minimumFee: fastFeeBps },
        { finalityThreshold: 2000, minimumFee: 0 },
      ]);
    }
    const messages = /^\/v2\/messages\/(\d+)$/.exec(url.pathname);
    const hash = url.searchParams.get('transactionHash');
    const domain = domains.find((entry) => String(entry.domain) === messages?.[1]);
    const validTxId = (entry: IrisFakeDomain, txId: string) =>
      isSource(entry) ? entry.isTxId(txId) : /^0x[0-9a-fA-F]{64}$/.test(txId);
    if (!messages || !domain || !hash || !validTxId(domain, hash)) {
      return send(res, 400, { error: 'Invalid request' });
    }
    if (mode === 'pending') {
      return send(res, 200, {
        messages: [
          {
            message: '0x',
            attestation: 'PENDING',
            eventNonce: null,
            cctpVersion: 2,
            status: 'pending_confirmations',
          },
        ],
      });
    }
    const attested = await attest(domain, hash);
    if (!attested || attested.length === 0) return send(res, 404, { error: 'Message not found' });
    return send(res, 200, { messages: attested });
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('iris fake: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    counts: () => ({
      all: requests.length,
      fees: requests.filter((path) => path.startsWith('/v2/burn/USDC/fees/')).length,
      messages: requests.filter((path) => path.startsWith('/v2/messages/')).length,
    }),
    setMode: (next) => {
      mode = next;
    },
    setFastFeeBps: (bps) => {
      fastFeeBps = bps;
    },
    setRetryAfter: (value) => {
      retryAfter = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
