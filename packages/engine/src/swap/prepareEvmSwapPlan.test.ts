import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { NATIVE_USDC, OnChainIds } from '@yieldrouter/schemas';
import { createChainAdapters } from '../chains/createChainAdapters';
import type { ChainAdapters } from '../chains/chainsConfig';
import { prepareEvmSwapPlan } from './prepareEvmSwapPlan';
import type { PrepareEvmSwapPlanParameters } from './prepareEvmSwapPlan';
import type { EvmSwapQuote, SwapQuoteSource } from './swapQuoteSource';
import { parseSwapSettings } from './swapSettings';

// The use case's own decisions, with a quote source that answers what each test needs: the
// quote checked against the slippage bound, the allowance read fail-closed, refusals stored
// nowhere, blocked plans stored.
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TARGET = '0x0000000000001fF3684f28c67538d4D072C22734';
const RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

const swaps = parseSwapSettings(
  {
    SVC_ZEROX_TIMEOUT_MS: 1_000,
    SVC_SWAP_QUOTE_TTL_SECONDS: 30,
    SVC_BASE_SWAP_FEE_RECIPIENT: RECIPIENT,
  },
  { base: NATIVE_USDC.base, arbitrum: NATIVE_USDC.arbitrum },
);

const quote = (overrides: Partial<EvmSwapQuote> = {}): EvmSwapQuote => ({
  status: 'ok',
  family: 'evm',
  source: '0x',
  amountOutMicros: 3_000_000_000_000_000n,
  minAmountOutMicros: 2_970_000_000_000_000n,
  poolFee: null,
  route: ['Bed_Pair'],
  priceImpactBps: null,
  expiresAt: new Date('2026-11-27T06:00:00Z'),
  transaction: { to: TARGET, data: '0x2213bc0b', value: 0n },
  allowanceTarget: TARGET,
  ...overrides,
});
const sourceOf = (answer: EvmSwapQuote): SwapQuoteSource => ({
  name: '0x',
  chains: ['base', 'arbitrum'],
  quote: async () => answer,
});

let test: TestDatabase;
let adapters: ChainAdapters;
beforeAll(async () => {
  test = await createTestDatabase();
  // An RPC nobody answers: the allowance cannot be read.
  const rpcUrl = await closedPortUrl();
  adapters = createChainAdapters({
    chains: {
      timeoutMs: 500,
      sui: { rpcUrl: undefined, network: 'mainnet', usdc: NATIVE_USDC.sui },
      solana: { rpcUrl: undefined, network: 'mainnet-beta', usdc: NATIVE_USDC.solana },
      base: { rpcUrl, usdc: NATIVE_USDC.base },
      arbitrum: { rpcUrl: undefined, usdc: NATIVE_USDC.arbitrum },
    },
    ids: OnChainIds.parse({ sui: {}, solana: {}, base: {}, arbitrum: {} }),
    switches: {
      sui: { executionEnabled: false, broadcastEnabled: false },
      solana: { executionEnabled: false, broadcastEnabled: false },
      base: { executionEnabled: false, broadcastEnabled: false },
      arbitrum: { executionEnabled: false, broadcastEnabled: false },
    },
  });
});
afterAll(() => test.drop());

const prepare = (overrides: Partial<PrepareEvmSwapPlanParameters> = {}) =>
  prepareEvmSwapPlan({
    db: test.db,
    adapters,
    swaps,
    source: sourceOf(quote()),
    request: {
      chain: 'base',
      owner: OWNER,
      inputToken: 'USDC',
      outputToken: 'weth',
      amountInMicros: 10_000_000n,
    },
    now: new Date('2026-11-27T05:59:30Z'),
    ...overrides,
  });

describe('prepareEvmSwapPlan', () => {
  it("a quote whose own minimum is looser than the plan's bound is not used", async () => {
    const plan = await prepare({
      source: sourceOf(quote({ minAmountOutMicros: 2_969_999_999_999_999n })),
    });
    expect(plan.status).toBe('blocked');
    expect(plan.blockers?.map((entry) => entry.code)).toEqual(['quote_unavailable']);
    expect(plan.quotedAmountOutMicros).toBeUndefined();
  });

  it('an unreadable allowance blocks the plan rpc_unavailable; nothing is guessed', async () => {
    const plan = await prepare();
    expect(plan.status).toBe('blocked');
    expect(plan.blockers?.map((entry) => entry.code)).toEqual(['rpc_unavailable']);
    expect(plan.legs).toBeUndefined();
    const stored = await test.db.plan.findUnique({ where: { id: plan.planId ?? '' } });
    expect(stored).toMatchObject({ kind: 'swap', status: 'blocked', feeMicros: 10_000n });
  });

  it('the allowance the quote reported is used: no chain read (one quote, one write)', async () => {
    // The RPC is closed: reading the allowance on chain would block the plan.
    const short = await prepare({ source: sourceOf(quote({ takerAllowance: 0n })) });
    expect(short.status).toBe('prepared');
    expect(short.legs?.map((leg) => leg.action)).toEqual(['approve', 'swap']);
    const covered = await prepare({ source: sourceOf(quote({ takerAllowance: 10_000_000n })) });
    expect(covered.legs?.map((leg) => leg.action)).toEqual(['swap']);
  });

  it('slippage beyond the schedule is refused naming the field, nothing stored', async () => {
    const before = await test.db.plan.count();
    await expect(
      prepare({
        request: {
          chain: 'base',
          owner: OWNER,
          inputToken: 'USDC',
          outputToken: 'WETH',
          amountInMicros: 1n,
          slippageBps: 501,
        },
      }),
    ).rejects.toMatchObject({
      name: 'EngineError',
      code: 'BAD_REQUEST',
      field: 'body.slippageBps',
    });
    expect(await test.db.plan.count()).toBe(before);
  });
});
