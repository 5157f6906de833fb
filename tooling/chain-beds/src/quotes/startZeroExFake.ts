import { randomBytes } from 'node:crypto';
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  isAddress,
  isAddressEqual,
  parseAbi,
  zeroAddress,
} from 'viem';
import type { Address } from 'viem';
import { startQuoteServer } from './startQuoteServer';

/** How the fake answers: like 0x, or one of the faults a quote source shows in real life. */
export type ZeroExFakeMode =
  | 'ok'
  /** Answers after `slowMs` (longer than any client timeout). */
  | 'slow'
  /** HTTP 500 with a 0x-style error body. */
  | 'http_500'
  /** HTTP 200 with JSON of the wrong shape (a float amount, no transaction). */
  | 'malformed'
  /** `{ liquidityAvailable: false }`: no route for the pair. */
  | 'no_liquidity'
  /**
   * A stale quote: priced 5% better than the pair's reserves now, and a transaction with no
   * minimum of its own, so the fill on chain lands below the quote's slippage bound.
   */
  | 'stale';

/** One chain the fake quotes on: its node and the TestPair quotes route through. */
export interface ZeroExFakeChain {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** The pair's two tokens are the only pair served on that chain. */
  readonly pair: Address;
}

export interface StartZeroExFakeParameters {
  /** Like 0x, one URL for every chain: `chainId` in the query picks the bed. */
  readonly chains: readonly ZeroExFakeChain[];
  readonly slowMs?: number;
}

export interface ZeroExFake {
  /** Base URL to configure as SVC_ZEROX_BASE_URL. */
  readonly url: string;
  /** Quote requests answered so far (each as its query parameters). */
  readonly requests: readonly Readonly<Record<string, string>>[];
  setMode(mode: ZeroExFakeMode): void;
  close(): Promise<void>;
}

const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getAmountOut(address tokenIn, uint256 amountIn) view returns (uint256)',
  'function FEE_BPS() view returns (uint256)',
  'function swapExactIn(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to, address feeRecipient, uint256 feeAmount) returns (uint256)',
]);

const DIGITS = /^(0|[1-9][0-9]*)$/;
/** Any case, as 0x takes addresses (no checksum check). */
const isAddressText = (value: string) => isAddress(value, { strict: false });

/**
 * A 0x Swap API v2 stand-in for beds and `pnpm localnet`: `GET /swap/allowance-holder/quote`
 * answers in 0x's response shape, priced from the bed TestPair's reserves on anvil (read at
 * request time), with a `transaction` that calls `TestPair.swapExactIn` — the integrator fee
 * (`swapFeeBps` / `swapFeeRecipient` / `swapFeeToken` = sellToken) paid out of the input, and
 * `minBuyAmount` enforced on chain. The allowance target is the pair. Fault modes: see
 * `ZeroExFakeMode`.
 *
 * @example
 * const fake = await startZeroExFake({ chains: [{ rpcUrl, chainId: 8453, pair: fixtures.pair }] });
 * // SVC_ZEROX_BASE_URL = fake.url
 */
export async function startZeroExFake(parameters: StartZeroExFakeParameters): Promise<ZeroExFake> {
  const beds = new Map(
    await Promise.all(
      parameters.chains.map(async (chain) => {
        const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
        const pair = getAddress(chain.pair);
        const [token0, token1, lpFeeBps] = await Promise.all([
          client.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }),
          client.readContract({ address: pair, abi: pairAbi, functionName: 'token1' }),
          client.readContract({ address: pair, abi: pairAbi, functionName: 'FEE_BPS' }),
        ]);
        return [
          String(chain.chainId),
          { chainId: chain.chainId, client, pair, token0, token1, lpFeeBps },
        ] as const;
      }),
    ),
  );
  let mode: ZeroExFakeMode = 'ok';
  const requests: Record<string, string>[] = [];

  const quote = async (query: Record<string, string>) => {
    const zid = `0x${randomBytes(12).toString('hex')}`;
    // 0x takes addresses in any case: compare and echo them lower-cased.
    const sellToken = (query['sellToken'] ?? '').toLowerCase();
    const buyToken = (query['buyToken'] ?? '').toLowerCase();
    const taker = (query['taker'] ?? '').toLowerCase();
    const sellAmountText = query['sellAmount'] ?? '';
    const bed = beds.get(query['chainId'] ?? '');
    if (
      !bed ||
      !isAddressText(sellToken) ||
      !isAddressText(buyToken) ||
      !isAddressText(taker) ||
      !DIGITS.test(sellAmountText) ||
      !DIGITS.test(query['slippageBps'] ?? '100') ||
      Number(query['slippageBps'] ?? '100') > 10_000 ||
      !DIGITS.test(query['swapFeeBps'] ?? '0') ||
      Number(query['swapFeeBps'] ?? '0') > 10_000 ||
      (query['swapFeeRecipient'] !== undefined && !isAddressText(query['swapFeeRecipient']))
    ) {
      return {
        status: 400,
        body: { name: 'INPUT_INVALID', message: 'Validation Failed', data: { zid } },
      };
    }
    const { client, pair, token0, token1, lpFeeBps } = bed;
    const served = [token0, token1];
    if (
      mode === 'no_liquidity' ||
      !served.some((token) => isAddressEqual(token, sellToken)) ||
      !served.some((token) => isAddressEqual(token, buyToken)) ||
      isAddressEqual(sellToken, buyToken)
    ) {
      return { status: 200, body: { liquidityAvailable: false, zid } };
    }
    const sellAmount = BigInt(sellAmountText);
    const slippageBps = BigInt(query['slippageBps'] ?? '100');
    const swapFeeBps = BigInt(query['swapFeeBps'] ?? '0');
    const recipient = query['swapFeeRecipient']?.toLowerCase();
    const feeToken = (query['swapFeeToken'] ?? sellToken).toLowerCase();
    const feeAmount =
      swapFeeBps > 0n && recipient && isAddressText(feeToken) && isAddressEqual(feeToken, sellToken)
        ? (sellAmount * swapFeeBps) / 10_000n
        : 0n;
    const swapped = sellAmount - feeAmount;
    let buyAmount = await client.readContract({
      address: pair,
      abi: pairAbi,
      functionName: 'getAmountOut',
      args: [getAddress(sellToken), swapped],
    });
    if (buyAmount === 0n) return { status: 200, body: { liquidityAvailable: false, zid } };
    let onChainMin = (buyAmount * (10_000n - slippageBps)) / 10_000n;
    if (mode === 'stale') {
      buyAmount = (buyAmount * 105n) / 100n;
      onChainMin = 0n;
    }
    const minBuyAmount = (buyAmount * (10_000n - slippageBps)) / 10_000n;
    const [allowance, balance, blockNumber] = await Promise.all([
      client.readContract({
        address: getAddress(sellToken),
        abi: erc20Abi,
        functionName: 'allowance',
        args: [getAddress(taker), pair],
      }),
      client.readContract({
        address: getAddress(sellToken),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [getAddress(taker)],
      }),
      client.getBlockNumber(),
    ]);
    const data = encodeFunctionData({
      abi: pairAbi,
      functionName: 'swapExactIn',
      args: [
        getAddress(sellToken),
        sellAmount,
        onChainMin,
        getAddress(taker),
        feeAmount > 0n && recipient ? getAddress(recipient) : zeroAddress,
        feeAmount,
      ],
    });
    return {
      status: 200,
      body: {
        allowanceTarget: pair,
        blockNumber: blockNumber.toString(),
        buyAmount: buyAmount.toString(),
        buyToken,
        chainId: bed.chainId,
        fees: {
          integratorFee:
            feeAmount > 0n
              ? { amount: feeAmount.toString(), token: sellToken, type: 'volume' }
              : null,
          // The pair's LP fee, on the input: what this source keeps of the swap.
          zeroExFee: {
            amount: ((swapped * lpFeeBps) / 10_000n).toString(),
            token: sellToken,
            type: 'volume',
          },
          gasFee: null,
        },
        issues: {
          allowance:
            allowance < sellAmount ? { actual: allowance.toString(), spender: pair } : null,
          balance:
            balance < sellAmount
              ? { token: sellToken, actual: balance.toString(), expected: sellAmount.toString() }
              : null,
          simulationIncomplete: false,
          invalidSourcesPassed: [],
        },
        liquidityAvailable: true,
        minBuyAmount: minBuyAmount.toString(),
        route: {
          fills: [{ from: sellToken, to: buyToken, source: 'Bed_Pair', proportionBps: '10000' }],
          tokens: [
            { address: sellToken, symbol: '' },
            { address: buyToken, symbol: '' },
          ],
        },
        sellAmount: sellAmount.toString(),
        sellToken,
        tokenMetadata: {
          buyToken: { buyTaxBps: '0', sellTaxBps: '0' },
          sellToken: { buyTaxBps: '0', sellTaxBps: '0' },
        },
        totalNetworkFee: null,
        transaction: { to: pair, data, gas: '200000', gasPrice: '1000000000', value: '0' },
        zid,
      },
    };
  };

  const server = await startQuoteServer({
    path: '/swap/allowance-holder/quote',
    notFound: { name: 'NOT_FOUND', message: 'not found' },
    isSlow: () => mode === 'slow',
    slowMs: parameters.slowMs ?? 10_000,
    requests,
    answer: (query, send) => {
      if (mode === 'http_500') {
        send(500, { name: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' });
      } else if (mode === 'malformed') {
        send(200, { liquidityAvailable: true, buyAmount: 1.5e17, sellAmount: 1 });
      } else {
        quote(query).then(
          ({ status, body }) => send(status, body),
          () => send(500, { name: 'INTERNAL_SERVER_ERROR', message: 'bed read failed' }),
        );
      }
    },
  });
  return {
    url: server.url,
    requests,
    setMode: (next) => {
      mode = next;
    },
    close: () => server.close(),
  };
}
