import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { deployCpPool, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaCpPool } from '@yieldrouter/chain-beds/solana';
import { startJupiterFake } from '@yieldrouter/chain-beds/quotes';
import type { JupiterFake } from '@yieldrouter/chain-beds/quotes';
import { createJupiterQuoteSource, jupiterQuoteUrl } from './createJupiterQuoteSource';
import { JUPITER_V6_PROGRAM_ID } from './jupiterSettings';
import {
  priceImpactBpsOf,
  readJupiterQuote,
  readJupiterSwapInstructions,
} from './readJupiterQuote';
import type { SwapQuoteRequest } from './swapQuoteSource';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WSOL = 'So11111111111111111111111111111111111111112';
const OWNER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const RECIPIENT = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

const request: SwapQuoteRequest = {
  chain: 'solana',
  inputToken: { symbol: 'USDC', address: USDC, decimals: 6 },
  outputToken: { symbol: 'WSOL', address: WSOL, decimals: 9 },
  amountInMicros: 100_000_000n,
  slippageBps: 100,
  taker: OWNER,
  serviceFee: { bps: 10, amountMicros: 100_000n, recipient: RECIPIENT },
};

// A Swap API v1 quote as Jupiter answers it (fields and formats of a mainnet answer; amounts
// for 99.9 USDC, the input net of the 10 bps service fee).
const recordedQuote = {
  inputMint: USDC,
  inAmount: '99900000',
  outputMint: WSOL,
  outAmount: '709213488',
  otherAmountThreshold: '702121353',
  swapMode: 'ExactIn',
  slippageBps: 100,
  platformFee: null,
  priceImpactPct: '0.0001234567',
  routePlan: [
    {
      swapInfo: {
        ammKey: 'Czfq3xZZDmsdGdUyrNLtRhGc47cXcZtLG4crryfu44zE',
        label: 'Whirlpool',
        inputMint: USDC,
        outputMint: WSOL,
        inAmount: '99900000',
        outAmount: '709213488',
        feeAmount: '39960',
        feeMint: USDC,
      },
      percent: 100,
      bps: 10000,
    },
  ],
  contextSlot: 331245678,
  timeTaken: 0.012837,
  swapUsdValue: '99.91',
  simplerRouteUsed: false,
  mostReliableAmmsQuoteReport: { info: {} },
  useIncurredSlippageForQuoting: null,
  otherRoutePlans: null,
};

const ix = (programId: string, signer = OWNER) => ({
  programId,
  accounts: [
    { pubkey: signer, isSigner: true, isWritable: true },
    { pubkey: USDC, isSigner: false, isWritable: false },
  ],
  data: 'AQIDBA==',
});
const recordedInstructions = {
  tokenLedgerInstruction: null,
  computeBudgetInstructions: [ix('ComputeBudget111111111111111111111111111111', USDC)].map(
    (entry) => ({ ...entry, accounts: [] }),
  ),
  setupInstructions: [ix('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL')],
  swapInstruction: ix(JUPITER_V6_PROGRAM_ID),
  cleanupInstruction: null,
  otherInstructions: [],
  addressLookupTableAddresses: ['GxS6FiQ3mNnAar9HGQ6mxP7t6FcwmHkU7peSeQDUHmpN'],
  prioritizationFeeLamports: 0,
  computeUnitLimit: 1400000,
  prioritizationType: { computeBudget: { microLamports: 0, estimatedMicroLamports: 0 } },
  simulationSlot: null,
  dynamicSlippageReport: null,
  simulationError: null,
};

const expiresAt = new Date('2026-11-27T05:00:30.000Z');

describe('readJupiterQuote (the recorded Swap API v1 shape)', () => {
  it('reads amounts, the pool fee on the input, route and price impact', () => {
    expect(readJupiterQuote(recordedQuote, request, expiresAt)).toEqual({
      status: 'ok',
      amountOutMicros: 709_213_488n,
      minAmountOutMicros: 702_121_353n,
      poolFee: { amountMicros: 39_960n, side: 'input' },
      route: ['Whirlpool'],
      priceImpactBps: 2,
      expiresAt,
    });
  });

  it('refuses a quote for another amount, mint, mode or slippage, or an unasked platform fee', () => {
    const cases = [
      { inAmount: '100000000' },
      { outputMint: USDC },
      { swapMode: 'ExactOut' },
      { slippageBps: 300 },
      { platformFee: { amount: '1000', feeBps: 20 } },
      { otherAmountThreshold: '709213489' },
    ];
    for (const change of cases) {
      expect(readJupiterQuote({ ...recordedQuote, ...change }, request, expiresAt)).toMatchObject({
        status: 'quote_unavailable',
      });
    }
    expect(readJupiterQuote({ ...recordedQuote, outAmount: 7.09e8 }, request, expiresAt)).toEqual({
      status: 'quote_unavailable',
      detail: expect.stringContaining('wrong shape (outAmount'),
    });
  });

  it('price impact: decimal text to bps, rounded away from zero, no floats', () => {
    expect(priceImpactBpsOf('0')).toBe(0);
    expect(priceImpactBpsOf('0.0001')).toBe(1);
    expect(priceImpactBpsOf('0.00010001')).toBe(2);
    expect(priceImpactBpsOf('0.0512')).toBe(512);
    expect(priceImpactBpsOf('-0.002')).toBe(-20);
    expect(priceImpactBpsOf('1000')).toBeUndefined();
  });
});

describe('readJupiterSwapInstructions', () => {
  const expected = { owner: OWNER, programId: JUPITER_V6_PROGRAM_ID };
  it('lets through compute budget, token-account setup and the swap on the expected program', () => {
    const read = readJupiterSwapInstructions(recordedInstructions, expected);
    expect(read).toMatchObject({
      setup: [{ programId: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL' }],
      swap: { programId: JUPITER_V6_PROGRAM_ID, data: 'AQIDBA==' },
      cleanup: [],
      addressLookupTables: ['GxS6FiQ3mNnAar9HGQ6mxP7t6FcwmHkU7peSeQDUHmpN'],
    });
  });

  it('refuses another signer, another swap program, setup beyond token accounts, cleanup', () => {
    const cases = [
      { swapInstruction: ix(JUPITER_V6_PROGRAM_ID, RECIPIENT) },
      { swapInstruction: ix(RECIPIENT) },
      { setupInstructions: [ix('11111111111111111111111111111111')] },
      { cleanupInstruction: ix('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA') },
      { otherInstructions: [ix(JUPITER_V6_PROGRAM_ID)] },
    ];
    for (const change of cases) {
      expect(
        readJupiterSwapInstructions({ ...recordedInstructions, ...change }, expected),
      ).toMatchObject({ status: 'quote_unavailable' });
    }
  });
});

describe('createJupiterQuoteSource against the Jupiter fake', () => {
  let bed: SolanaBed;
  let pool: SolanaCpPool;
  let fake: JupiterFake;
  let bedRequest: SwapQuoteRequest;

  beforeAll(async () => {
    bed = await startSolanaBed();
    pool = deployCpPool(bed, { reserveA: 1_000_000_000_000n, reserveB: 5_000_000_000_000n });
    fake = await startJupiterFake({ bed, pools: [pool], slowMs: 4_000 });
    bedRequest = {
      ...request,
      inputToken: { symbol: 'USDC', address: pool.mintA, decimals: 6 },
      outputToken: { symbol: 'BED', address: pool.mintB, decimals: 9 },
      taker: bed.createFundedKeypair().publicKey.toBase58(),
    };
  }, 60_000);
  afterAll(async () => {
    await fake.close();
    await bed.stop();
  });

  const source = (baseUrl = fake.url) =>
    createJupiterQuoteSource({
      baseUrl,
      apiKey: 'secret-key',
      timeoutMs: 1_500,
      programId: pool.program,
      quoteTtlMs: 30_000,
      now: () => new Date('2026-11-27T05:00:00Z'),
    });

  it('quotes the input net of the service fee and returns the swap instructions', async () => {
    const answer = await source().quote(bedRequest);
    expect(answer).toMatchObject({
      status: 'ok',
      family: 'solana',
      source: 'jupiter',
      poolFee: { amountMicros: 299_700n, side: 'input' },
      route: ['Bed CP Pool'],
      expiresAt: new Date('2026-11-27T05:00:30Z'),
      swapProgram: pool.program,
      instructions: { swap: { programId: pool.program }, addressLookupTables: [] },
    });
    const query = fake.requests.at(-2)?.body as Record<string, string>;
    expect(query).toMatchObject({ amount: '99900000', onlyDirectRoutes: 'true' });
    expect(jupiterQuoteUrl({ baseUrl: fake.url }, bedRequest).pathname).toBe('/swap/v1/quote');
  });

  it.each([
    ['slow', 'quote_timeout'],
    ['http_500', 'quote_unavailable'],
    ['malformed', 'quote_unavailable'],
    ['no_route', 'no_route'],
  ] as const)('%s → %s, never a price', async (mode, status) => {
    fake.setMode(mode);
    try {
      const answer = await source().quote(bedRequest);
      expect(answer.status).toBe(status);
      expect(JSON.stringify(answer)).not.toContain('secret-key');
      expect(JSON.stringify(answer)).not.toContain('127.0.0.1');
    } finally {
      fake.setMode('ok');
    }
  });

  it('a source nobody answers is quote_unavailable', async () => {
    const answer = await source(`${await closedPortUrl()}/swap/v1`).quote(bedRequest);
    expect(answer).toMatchObject({ status: 'quote_unavailable' });
  });
});
