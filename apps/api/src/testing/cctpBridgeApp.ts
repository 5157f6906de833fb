import type { Address } from 'viem';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import type { TestApp } from './startTestApp';
import { TEST_WALLET, startTestApp, testKeys } from './startTestApp';

/** Where the bridge fee goes on both anvils (anvil's last account). */
export const BRIDGE_FEE_RECIPIENT: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/** The CCTP bed and the app on it; `close` stops both. */
export interface CctpBridgeApp {
  readonly cctp: CctpBed;
  readonly t: TestApp;
  close(): Promise<void>;
}

/**
 * The CCTP bed (two anvils with the stand-ins, the Iris fake) with `owner` holding `usdcMicros`
 * on Base, and the app on it: the keeper's key, `ownerKey` for `owner`'s wallet and the test
 * owner key for TEST_WALLET's; Iris answers within a second.
 */
export async function startCctpBridgeApp(
  owner: Address,
  ownerKey: string,
  usdcMicros: bigint,
): Promise<CctpBridgeApp> {
  const cctp = await startCctpBed({ feeRecipient: BRIDGE_FEE_RECIPIENT });
  await cctp.base.fixtures.mintUsdc(owner, usdcMicros);
  const t = await startTestApp({
    ...cctp.settings,
    SVC_CCTP_TIMEOUT_MS: '1000',
    SVC_API_KEYS: JSON.stringify([
      { key: testKeys.owner, role: 'owner', wallets: [TEST_WALLET] },
      { key: ownerKey, role: 'owner', wallets: [owner] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
  return {
    cctp,
    t,
    close: async () => {
      await t.close();
      await cctp.stop();
    },
  };
}
