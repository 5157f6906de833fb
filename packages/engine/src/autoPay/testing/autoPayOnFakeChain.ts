// Test support: a wallet staked on the fake chain with an auto-pay config, and its harvest, made
// the way production makes them. Product code never imports it.
import type { LegSettlements, PrismaClient } from '@yieldrouter/ledger';
import type { AutoPayConfigInput, HarvestResult, Opportunity } from '@yieldrouter/schemas';
import { harvestWallet } from '../../wallets/harvest';
import { fakeBase58, fakeChain } from '../../wallets/testing/fakeChain';
import type { FakeChain } from '../../wallets/testing/fakeChain';
import { fakeStakeVenues, stakeWallets } from '../../wallets/testing/stakeOnFakeChain';
import { setAutoPay } from '../autoPayConfig';

export interface AutoPayWalletParameters {
  readonly db: PrismaClient;
  readonly settlements: LegSettlements;
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
    settlements: parameters.settlements,
    chain,
    opportunities: parameters.opportunities,
    wallets: [wallet],
    amountMicros: parameters.principalMicros,
  });
  return { chain, wallet };
}

/** The permissionless harvest of the wallet, booked. */
export function harvestOnFakeChain(
  db: PrismaClient,
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
