import request from 'supertest';
import { WalletBalanceDocument } from '@yieldrouter/schemas';
import type { FaultEndpoint } from '@yieldrouter/chain-beds/faults';
import {
  closedPortUrl,
  startGarbageServer,
  startSilentServer,
} from '@yieldrouter/chain-beds/faults';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp } from './testing/startTestApp';

const ADDRESSES = SAMPLE_ADDRESSES;
const CHAINS = Object.keys(ADDRESSES) as (keyof typeof ADDRESSES)[];

const path = (chain: string, address: string) =>
  `/api/v1/svc/${chain}/wallet-balance?address=${encodeURIComponent(address)}`;

describe('wallet-balance without any RPC configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each(CHAINS)('%s answers 200 with N/A legs, never a number', async (chain) => {
    const res = await request(t.app).get(path(chain, ADDRESSES[chain])).expect(200);
    const body = WalletBalanceDocument.parse(res.body);
    expect(body.chain).toBe(chain);
    expect(body.complete).toBe(false);
    expect(body.legs.length).toBeGreaterThanOrEqual(2);
    for (const leg of body.legs) {
      expect(leg).toMatchObject({ status: 'unavailable', amount: null, display: 'N/A' });
      expect(leg.reason).toBe('rpc_not_configured');
    }
  });

  it.each([
    ['sui', '0xnothex'],
    ['solana', '0OIl-not-base58'],
    ['base', '0x1234'],
    ['arbitrum', 'vitalik.eth'],
    ['base', '0x52908400098527886e0F7030069857D2E4169EE7'], // bad EIP-55 checksum
  ])('%s refuses malformed address %s with 400 naming query.address', async (chain, address) => {
    const res = await request(t.app).get(path(chain, address)).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'query.address' });
    expect(res.body.requestId).toMatch(/^req_/);
  });

  it('a missing address is a 400 too', async () => {
    const res = await request(t.app).get('/api/v1/svc/solana/wallet-balance').expect(400);
    expect(res.body.field).toBe('query.address');
  });

  it('is served under the legacy alias', async () => {
    await request(t.app).get(`/api/svc/base/wallet-balance?address=${ADDRESSES.base}`).expect(200);
  });
});

// The RPC timeout of each case. A refused connection and a garbage answer must be told apart
// from a timeout whatever the machine's load: with a 300 ms timeout, a process descheduled for
// longer between sending a call and reading its answer ran the expired timer first and read
// `rpc_timeout` (Node runs timers before I/O). Those cases get the longest timeout the setting
// allows, so an answer within it (and its reason) shows it came from the RPC, not the timer; the
// silent RPC keeps a short one, and its answer must come long before a hung request would.
const LONGEST_RPC_TIMEOUT_MS = 30_000;
const SILENT_RPC_TIMEOUT_MS = 300;

describe.each([
  ['down (connection refused)', 'rpc_error', LONGEST_RPC_TIMEOUT_MS],
  ['silent (never answers)', 'rpc_timeout', SILENT_RPC_TIMEOUT_MS],
  ['talking garbage', 'rpc_bad_response', LONGEST_RPC_TIMEOUT_MS],
] as const)('wallet-balance with every RPC %s', (label, reason, rpcTimeoutMs) => {
  let t: TestApp;
  let fault: FaultEndpoint | undefined;
  beforeAll(async () => {
    let url: string;
    if (label.startsWith('down')) url = await closedPortUrl();
    else {
      fault = label.startsWith('silent') ? await startSilentServer() : await startGarbageServer();
      url = fault.url;
    }
    t = await startTestApp({
      SVC_RPC_TIMEOUT_MS: String(rpcTimeoutMs),
      SVC_SUI_RPC_URL: url,
      SVC_SOLANA_RPC_URL: url,
      SVC_BASE_RPC_URL: url,
      SVC_ARBITRUM_RPC_URL: url,
    });
  });
  afterAll(async () => {
    await t.close();
    await fault?.close();
  });

  it.each(CHAINS)(`%s legs are N/A (${reason}), promptly`, async (chain) => {
    const started = Date.now();
    const res = await request(t.app).get(path(chain, ADDRESSES[chain])).expect(200);
    // Promptly: before the RPC timeout for an RPC that answers (refused, garbage); for the silent
    // one, far inside the test's own limit, which a request waiting on it would reach.
    expect(Date.now() - started).toBeLessThan(
      rpcTimeoutMs === SILENT_RPC_TIMEOUT_MS ? 20_000 : rpcTimeoutMs,
    );
    const body = WalletBalanceDocument.parse(res.body);
    expect(body.complete).toBe(false);
    for (const leg of body.legs) {
      expect(leg).toMatchObject({ status: 'unavailable', amount: null, display: 'N/A', reason });
    }
  });
});
