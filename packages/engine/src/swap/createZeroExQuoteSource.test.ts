import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createZeroExQuoteSource, readZeroExQuote } from './createZeroExQuoteSource';
import type { SwapQuoteRequest } from './swapQuoteSource';

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const WETH = '0x4200000000000000000000000000000000000006';
const TAKER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const FEE_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ALLOWANCE_HOLDER = '0x0000000000001fF3684f28c67538d4D072C22734';

const request: SwapQuoteRequest = {
  chain: 'base',
  inputToken: { symbol: 'USDC', address: USDC, decimals: 6 },
  outputToken: { symbol: 'WETH', address: WETH, decimals: 18 },
  amountInMicros: 250_000_000n,
  slippageBps: 100,
  taker: TAKER,
  serviceFee: { bps: 10, amountMicros: 250_000n, recipient: FEE_RECIPIENT },
};

/**
 * The shape of a real 0x Swap API v2 allowance-holder quote on Base (fields and nesting as 0x
 * documents and answers them; amounts set for this request).
 */
const recordedQuote = {
  allowanceTarget: ALLOWANCE_HOLDER,
  blockNumber: '23104455',
  buyAmount: '94868143711420417',
  buyToken: WETH,
  chainId: 8453,
  fees: {
    integratorFee: { amount: '250000', token: USDC, type: 'volume' },
    zeroExFee: { amount: '142516009831711', token: WETH, type: 'volume' },
    gasFee: null,
  },
  issues: {
    allowance: { actual: '0', spender: ALLOWANCE_HOLDER },
    balance: null,
    simulationIncomplete: false,
    invalidSourcesPassed: [],
  },
  liquidityAvailable: true,
  minBuyAmount: '93919462274306213',
  route: {
    fills: [
      { from: USDC, to: WETH, source: 'Uniswap_V3', proportionBps: '7000' },
      { from: USDC, to: WETH, source: 'Aerodrome_V2', proportionBps: '3000' },
    ],
    tokens: [
      { address: USDC, symbol: 'USDC' },
      { address: WETH, symbol: 'WETH' },
    ],
  },
  sellAmount: '250000000',
  sellToken: USDC,
  tokenMetadata: {
    buyToken: { buyTaxBps: '0', sellTaxBps: '0' },
    sellToken: { buyTaxBps: '0', sellTaxBps: '0' },
  },
  totalNetworkFee: '1540918220838',
  transaction: {
    to: ALLOWANCE_HOLDER,
    data: '0x2213bc0b000000000000000000000000',
    gas: '288079',
    gasPrice: '5349012',
    value: '0',
  },
  zid: '0x5f0c1b2e3a8d4c6e7f901234',
};

const expiresAt = new Date('2026-11-27T05:00:30.000Z');

describe('readZeroExQuote (the recorded 0x v2 shape)', () => {
  it('reads amounts, fees, route and the transaction', () => {
    const quote = readZeroExQuote(recordedQuote, request, expiresAt);
    expect(quote).toEqual({
      status: 'ok',
      family: 'evm',
      source: '0x',
      amountOutMicros: 94_868_143_711_420_417n,
      minAmountOutMicros: 93_919_462_274_306_213n,
      poolFee: { amountMicros: 142_516_009_831_711n, side: 'output' },
      route: ['Uniswap_V3', 'Aerodrome_V2'],
      priceImpactBps: null,
      expiresAt,
      transaction: { to: ALLOWANCE_HOLDER, data: recordedQuote.transaction.data, value: 0n },
      allowanceTarget: ALLOWANCE_HOLDER,
      // issues.allowance: what the taker allows the allowance target (here nothing yet).
      takerAllowance: 0n,
    });
  });

  it.each([
    ['an allowance issue', { actual: '7', spender: ALLOWANCE_HOLDER }, 7n],
    ['no allowance issue (it covers the sell amount)', null, 250_000_000n],
    ['an issue for another spender (read on chain)', { actual: '7', spender: TAKER }, undefined],
  ])("%s → the taker's allowance as 0x read it", (_name, allowance, expected) => {
    const quote = readZeroExQuote(
      { ...recordedQuote, issues: { ...recordedQuote.issues, allowance } },
      request,
      expiresAt,
    );
    expect(quote.status === 'ok' ? quote.takerAllowance : quote.status).toBe(expected);
  });

  it('no issues reported: the allowance is left to the chain', () => {
    const quote = readZeroExQuote({ ...recordedQuote, issues: undefined }, request, expiresAt);
    expect(quote.status === 'ok' && 'takerAllowance' in quote).toBe(false);
  });

  it('no liquidity is no_route', () => {
    expect(readZeroExQuote({ liquidityAvailable: false, zid: '0x1' }, request, expiresAt)).toEqual({
      status: 'no_route',
      detail: expect.stringContaining('no liquidity'),
    });
  });

  it.each([
    ['a float amount', { buyAmount: '1.5e17' }],
    ['a missing transaction', { transaction: undefined }],
    ['another chain', { chainId: 42161 }],
    ['another sell amount', { sellAmount: '1' }],
    ['a transaction with value', { transaction: { ...recordedQuote.transaction, value: '1' } }],
    ['no service fee', { fees: { ...recordedQuote.fees, integratorFee: null } }],
    ['minBuyAmount above buyAmount', { minBuyAmount: '94868143711420418' }],
  ])('%s is quote_unavailable', (_name, change) => {
    const answer = readZeroExQuote({ ...recordedQuote, ...change }, request, expiresAt);
    expect(answer.status).toBe('quote_unavailable');
  });
});

describe('createZeroExQuoteSource (over HTTP)', () => {
  let server: Server;
  let baseUrl: string;
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  let seen: IncomingMessage | undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen = req;
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const source = (timeoutMs = 1_000) =>
    createZeroExQuoteSource({
      baseUrl,
      apiKey: 'test-key',
      timeoutMs,
      quoteTtlMs: 30_000,
      now: () => new Date('2026-11-27T05:00:00.000Z'),
    });

  it('asks the allowance-holder quote with the service fee and the v2 headers', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(recordedQuote));
    };
    const quote = await source().quote(request);
    expect(quote.status).toBe('ok');
    if (quote.status === 'ok') expect(quote.expiresAt).toEqual(expiresAt);
    const url = new URL(seen?.url ?? '', baseUrl);
    expect(url.pathname).toBe('/swap/allowance-holder/quote');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      chainId: '8453',
      sellToken: USDC,
      buyToken: WETH,
      sellAmount: '250000000',
      taker: TAKER,
      slippageBps: '100',
      swapFeeBps: '10',
      swapFeeRecipient: FEE_RECIPIENT,
      swapFeeToken: USDC,
    });
    expect(seen?.headers['0x-api-key']).toBe('test-key');
    expect(seen?.headers['0x-version']).toBe('v2');
  });

  it('fails closed: 5xx, not JSON, slow', async () => {
    handler = (_req, res) => {
      res.writeHead(503);
      res.end('down');
    };
    expect(await source().quote(request)).toEqual({
      status: 'quote_unavailable',
      detail: '0x answered HTTP 503',
    });
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>oops</html>');
    };
    expect((await source().quote(request)).status).toBe('quote_unavailable');
    handler = () => undefined; // never answers
    const started = Date.now();
    const slow = await source(200).quote(request);
    expect(slow.status).toBe('quote_timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a refused connection is quote_unavailable without the URL or key', async () => {
    const down = createZeroExQuoteSource({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'secret-key',
      timeoutMs: 1_000,
      quoteTtlMs: 30_000,
    });
    const answer = await down.quote(request);
    expect(answer.status).toBe('quote_unavailable');
    if (answer.status !== 'ok') {
      expect(answer.detail).not.toContain('127.0.0.1');
      expect(answer.detail).not.toContain('secret-key');
    }
  });
});
