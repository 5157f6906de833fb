// Test support: a wallet staked on the fake chain with an auto-pay config, and its harvest, made
// the way production makes them. Product code never imports it.
import type { Books } from '@yieldrouter/ledger';
import type { AutoPayConfigInput, HarvestResult, Opportunity } from '@yieldrouter/schemas';
import { harvestWallet } from '../../wallet/harvest';
import { fakeBase58, fakeChain } from '../../wallet/testing/fakeChain';
import type { FakeChain } from '../../wallet/testing/fakeChain';
import { fakeStakeVenues, stakeWallets } from '../../wallet/testing/stakeOnFakeChain';
import { setAutoPay } from '../autoPayConfig';

export interface AutoPayWalletParameters {
  readonly db: Books;
  readonly opportunities: readonly Opportunity[];
  readonly config: AutoPayConfigInput;
  readonly principalMicros: bigint;
}

/** A fresh wallet on a fresh fake chain: the config set, then `principalMicros` staked. */
export async function stakedAutoPayWallet(
  parameters: AutoPayWalletParameters,
): Promise<{ readonly chain: FakeChain; readonly wallet: string }> {
  const chain = fakeChain();
  const wallet = fakeBase58();
  const { db } = parameters;
  await setAutoPay(db, chain.adapters, fakeStakeVenues, wallet, parameters.config, new Date());
  await stakeWallets({
    db,
    chain,
    opportunities: parameters.opportunities,
    wallets: [wallet],
    amountMicros: parameters.principalMicros,
  });
  return { chain, wallet };
}

/**
 * A fresh staked wallet whose auto-pay sends `percentage` of its yield to one fresh payee (all of
 * the payout, manual trigger).
 */
export async function stakedOnePayeeWallet(
  parameters: Omit<AutoPayWalletParameters, 'config'> & { readonly percentage: number },
): Promise<{ readonly chain: FakeChain; readonly wallet: string; readonly payee: string }> {
  const { percentage, ...rest } = parameters;
  const payee = fakeBase58();
  const { chain, wallet } = await stakedAutoPayWallet({
    ...rest,
    config: {
      enabled: true,
      percentage,
      payees: [{ payeeId: 'p1', address: payee, weightBps: 10_000 }],
      trigger: 'manual',
    },
  });
  return { chain, wallet, payee };
}

/** The permissionless harvest of the wallet, booked. */
export function harvestOnFakeChain(
  db: Books,
  chain: FakeChain,
  wallet: string,
): Promise<HarvestResult> {
  return harvestWallet({
    db,
    adapters: chain.adapters,
    venues: fakeStakeVenues,
    address: wallet,
    execute: false,
    broadcastEnabled: () => false,
    now: new Date(),
  });
}
