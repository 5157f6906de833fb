import type { Address } from 'viem';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { startZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { ZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { TestApp } from './startTestApp';
import { startTestApp } from './startTestApp';
import { SWAP_FEE_RECIPIENT } from './startSwapBedApp';
import { crossChainDepositSettings } from './crossChainDepositHelpers';

const BRIDGE_FEE_RECIPIENT: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/**
 * The cross-chain deposit settings with WETH known on Base; given the 0x fake, Base swaps
 * through it (a 500 ms timeout, the swap fee recipient set). Without it Base has no swap source.
 */
export const crossChainSwapSettings = (
  bed: CctpBed,
  owner: { readonly address: Address; readonly key: string },
  fake?: ZeroExFake,
): Record<string, string> => ({
  ...crossChainDepositSettings(bed, owner),
  ...(fake
    ? {
        SVC_ZEROX_BASE_URL: fake.url,
        SVC_ZEROX_TIMEOUT_MS: '500',
        SVC_BASE_SWAP_FEE_RECIPIENT: SWAP_FEE_RECIPIENT,
      }
    : {}),
  SVC_BASE_SWAP_TOKENS: `WETH:${bed.base.fixtures.weth}:18`,
});

export interface CrossChainSwapBeds {
  readonly cctp: CctpBed;
  readonly fake: ZeroExFake;
  readonly t: TestApp;
}

/**
 * The CCTP bed (Base → Arbitrum) with 1 WETH minted to the owner on Base, the 0x fake over the
 * Base bed's WETH/USDC pair (slow mode: 2 s), and the app swapping through it.
 */
export async function startCrossChainSwapBeds(owner: {
  readonly address: Address;
  readonly key: string;
}): Promise<CrossChainSwapBeds> {
  const cctp = await startCctpBed({ feeRecipient: BRIDGE_FEE_RECIPIENT });
  let fake: ZeroExFake | undefined;
  try {
    await cctp.base.fixtures.mintWeth(owner.address, 10n ** 18n);
    fake = await startZeroExFake({
      chains: [{ rpcUrl: cctp.base.anvil.rpcUrl, chainId: 8453, pair: cctp.base.fixtures.pair }],
      slowMs: 2_000,
    });
    const t = await startTestApp(crossChainSwapSettings(cctp, owner, fake));
    return { cctp, fake, t };
  } catch (error) {
    // Nothing left running when the suite cannot start (its afterAll sees none of these).
    await fake?.close();
    await cctp.stop();
    throw error;
  }
}

/**
 * `startCrossChainSwapBeds` for the calling suite: started before its tests, stopped after, the
 * 0x fake put back to `ok` after each test. The beds are read when a test runs.
 */
export function useCrossChainSwapBeds(owner: {
  readonly address: Address;
  readonly key: string;
}): () => CrossChainSwapBeds {
  let beds: CrossChainSwapBeds | undefined;
  beforeAll(async () => {
    beds = await startCrossChainSwapBeds(owner);
  }, 120_000);
  afterAll(async () => {
    await beds?.t.close();
    await beds?.fake.close();
    await beds?.cctp.stop();
  });
  afterEach(() => beds?.fake.setMode('ok'));
  return () => {
    if (!beds) throw new Error('the cross-chain swap beds did not start');
    return beds;
  };
}
