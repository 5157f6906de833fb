import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import type { LegBuild, LegRequest, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import type { SuiChainAdapter } from './adapter';
import { createSuiAdapter } from './adapter';
import { SUI_VENUE_UNOBSERVED } from './simulateSuiLegs';
import { PLAN_ID, USDC, suiConfig } from './testFixtures';
import {
  fundedWallet,
  startVenueBed,
  walletSend,
  withTransaction,
} from './venues/walletSend.testing';

// Issue 44 on Sui: a leg dry-run (sui_dryRunTransactionBlock, the bed fake) moves what the
// executed transaction moves, owner by owner; a PTB that also sends a coin elsewhere shows it.

let fake: SuiFake;
let client: SuiJsonRpcClient;
let adapter: SuiChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  ({ fake, client, adapter } = await startVenueBed());
  const suilend = fake.addSuilend({ usdc: USDC, availableAmount: 1_000_000_000_000n });
  venue = { venueId: 'suilend', chain: 'sui', standard: 'router-adapter', ids: suilend.ids };
});
afterAll(() => fake.stop());

const funded = () => fundedWallet(fake);

const request = (owner: string, amountMicros: bigint): LegRequest => ({
  planId: PLAN_ID,
  owner,
  amountMicros,
  target: { kind: 'venue', venue },
});

function legOf(build: LegBuild): UnsignedLeg {
  if (build.status !== 'prepared' || build.legs.length !== 1)
    throw new Error(JSON.stringify(build));
  return build.legs[0] as UnsignedLeg;
}

const simulate = (owner: string, leg: UnsignedLeg) =>
  adapter.simulateLegs!({ owner, payloads: [leg.payload] });

/** Executes the leg as the owner's wallet does and reads back what it moved. */
async function land(wallet: Ed25519Keypair, leg: UnsignedLeg) {
  const sent = await walletSend(fake, client, wallet, {
    status: 'prepared',
    legs: [leg],
  } as LegBuild);
  expect(sent.status).toBe('success');
  return adapter.readLegChanges!(sent.digest);
}

const usdcOf = (changes: readonly { asset: string }[]) =>
  changes.filter((change) => change.asset === USDC);

describe('simulateSuiLegs on the bed fake', () => {
  it('an honest deposit, and a withdrawal with its skim: the dry run is what lands', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const treasury = new Ed25519Keypair().toSuiAddress();
    const deposit = legOf(await adapter.buildDeposit(request(owner, 20_000_000n)));
    const simulated = await simulate(owner, deposit);
    expect(simulated).toMatchObject({ status: 'ok', method: 'dryRunTransactionBlock', usdc: USDC });
    if (simulated.status !== 'ok') throw new Error('not simulated');
    const [leg] = simulated.legs;
    expect(leg).toMatchObject({ outcome: 'ok', unobserved: [SUI_VENUE_UNOBSERVED] });
    expect(usdcOf(leg?.changes ?? [])).toEqual([
      { account: owner, asset: USDC, delta: -20_000_000n },
    ]);
    expect(await land(wallet, deposit)).toEqual({
      status: 'ok',
      changes: leg?.changes,
      block: expect.any(String),
    });

    const skim = { recipient: treasury, amountMicros: 123_456n };
    const withdrawal = legOf(await adapter.buildWithdraw({ ...request(owner, 10_000_000n), skim }));
    const dry = await simulate(owner, withdrawal);
    if (dry.status !== 'ok') throw new Error('not simulated');
    const changes = dry.legs[0]?.changes ?? [];
    expect(usdcOf(changes)).toEqual(
      expect.arrayContaining([
        { account: treasury, asset: USDC, delta: 123_456n },
        { account: owner, asset: USDC, delta: expect.any(BigInt) },
      ]),
    );
    expect(await land(wallet, withdrawal)).toEqual({
      status: 'ok',
      changes,
      block: expect.any(String),
    });
  });

  it('a PTB that also sends a coin elsewhere: the dry run shows the stranger paid', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const stranger = new Ed25519Keypair().toSuiAddress();
    const honest = legOf(await adapter.buildDeposit(request(owner, 5_000_000n)));
    if (honest.payload.encoding !== 'sui-transaction-json') throw new Error('not json');
    const tx = Transaction.from(honest.payload.transaction);
    tx.transferObjects([coinWithBalance({ type: USDC, balance: 1_000_000n })], stranger);
    const cheat = await withTransaction(honest, tx);
    const simulated = await simulate(owner, cheat);
    if (simulated.status !== 'ok') throw new Error(JSON.stringify(simulated));
    expect(usdcOf(simulated.legs[0]?.changes ?? [])).toEqual(
      expect.arrayContaining([
        { account: stranger, asset: USDC, delta: 1_000_000n },
        { account: owner, asset: USDC, delta: -6_000_000n },
      ]),
    );
  });

  it('says unavailable, with the reason, when it cannot dry-run; reverted when the leg fails', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const leg = legOf(await adapter.buildDeposit(request(owner, 1_000_000n)));
    expect(
      await adapter.simulateLegs!({ owner, payloads: [leg.payload, leg.payload] }),
    ).toMatchObject({
      // Several legs: the first is dry-run on the current state, the later ones wait for it.
      status: 'ok',
      legs: [
        { outcome: 'ok', changes: expect.arrayContaining([expect.anything()]) },
        { outcome: 'deferred', changes: [] },
      ],
    });
    const offline = createSuiAdapter(suiConfig({ rpcUrl: undefined }));
    expect(await offline.simulateLegs!({ owner, payloads: [leg.payload] })).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_not_configured',
    });
    const down = createSuiAdapter(suiConfig({ rpcUrl: 'http://127.0.0.1:9' }));
    expect(await down.simulateLegs!({ owner, payloads: [leg.payload] })).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_error',
    });
    const tooMuch = legOf(await adapter.buildDeposit(request(owner, 80_000_000n)));
    expect(await simulate(owner, tooMuch)).toMatchObject({
      status: 'ok',
      legs: [{ outcome: 'reverted', changes: [] }],
    });
  });
});
