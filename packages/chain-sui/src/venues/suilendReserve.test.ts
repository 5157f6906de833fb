import type { SuiFake, SuiFakeSuilend } from '@yieldrouter/chain-beds/sui';
import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { LegBuild, LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import { createSuiAdapter } from '../adapter';
import type { SuiChainAdapter } from '../adapter';
import { PLAN_ID, suiConfig, USDC } from '../testFixtures';
import { startVenueBed, walletSend } from './walletSend.testing';

// Suilend's USDC reserve index, found in the LendingMarket on chain as @suilend/sdk's
// findReserveArrayIndex does (by coin type), when no ids.reserveIndex is configured; a
// configured one is checked there. On the bed USDC's reserve is the third (as on mainnet it is
// not the first), and the bed's Suilend aborts a call naming another reserve.
const SUI = '0x2::sui::SUI';
const OTHER_RESERVES = [SUI, `0x${'e7'.repeat(32)}::weth::WETH`];

let fake: SuiFake;
let client: SuiJsonRpcClient;
let adapter: SuiChainAdapter;
let suilend: SuiFakeSuilend;
beforeAll(async () => {
  ({ fake, client, adapter } = await startVenueBed());
  suilend = fake.addSuilend({
    usdc: USDC,
    availableAmount: 1_000_000_000_000n,
    reservesBefore: OTHER_RESERVES,
  });
});
afterAll(() => fake.stop());

/** Suilend's ids with `reserveIndex` as given (undefined: not configured). */
function venue(reserveIndex: string | undefined): VenueOnChain {
  const { reserveIndex: _published, ...ids } = suilend.ids;
  return {
    venueId: 'suilend',
    chain: 'sui',
    standard: 'router-adapter',
    ids: reserveIndex === undefined ? ids : { ...ids, reserveIndex },
  };
}
const request = (owner: string, target: VenueOnChain, amountMicros: bigint): LegRequest => ({
  planId: PLAN_ID,
  owner,
  amountMicros,
  target: { kind: 'venue', venue: target },
});

const signAndSend = async (wallet: Ed25519Keypair, build: LegBuild) =>
  (await walletSend(fake, client, wallet, build)).status;

function funded() {
  const wallet = new Ed25519Keypair();
  fake.setBalance(wallet.toSuiAddress(), SUI, 1_000_000_000n);
  fake.setBalance(wallet.toSuiAddress(), USDC, 50_000_000n);
  return wallet;
}

it('the bed lays USDC after other reserves, as the published LendingMarket does', () => {
  expect(suilend.ids.reserveIndex).toBe('2');
});

it.each([
  ['not configured', undefined],
  ['configured and right', '2'],
])('reserve index %s: deposit, position and withdrawal run at USDC reserve', async (_, index) => {
  const wallet = funded();
  const owner = wallet.toSuiAddress();
  const target = venue(index);
  expect(
    await signAndSend(wallet, await adapter.buildDeposit(request(owner, target, 9_000_000n))),
  ).toBe('success');
  const position = await adapter.readPosition(target, owner, 1n);
  expect(position).toMatchObject({ status: 'ok' });
  if (position.status !== 'ok') throw new Error('no position');
  expect(position.ownerValueMicros).toBe(9_000_000n);
  expect(
    await signAndSend(wallet, await adapter.buildWithdraw(request(owner, target, 4_000_000n))),
  ).toBe('success');
});

it.each([
  ['another reserve', '0'],
  ['past the last reserve', '3'],
])('a configured index naming %s is refused, naming ids.reserveIndex', async (_, index) => {
  const owner = funded().toSuiAddress();
  for (const build of [
    await adapter.buildDeposit(request(owner, venue(index), 5_000_000n)),
    await adapter.buildWithdraw(request(owner, venue(index), 5_000_000n)),
  ]) {
    expect(build).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'venue_not_configured', field: 'ids.reserveIndex' }],
    });
    if (build.status !== 'blocked') throw new Error('not blocked');
    expect(build.blockers[0]?.message).toContain("USDC's is 2");
  }
  // Valuing a position at the wrong reserve is N/A, never another reserve's rate.
  expect(await adapter.readPosition(venue(index), owner, 1n)).toMatchObject({
    status: 'unavailable',
  });
});

it('with no index configured and the market unreadable, the leg is blocked, never guessed', async () => {
  const owner = funded().toSuiAddress();
  const offline = createSuiAdapter(suiConfig({ rpcUrl: undefined }));
  const unreachable = createSuiAdapter(suiConfig({ rpcUrl: await closedPortUrl() }));
  for (const chain of [offline, unreachable]) {
    expect(await chain.buildDeposit(request(owner, venue(undefined), 5_000_000n))).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'rpc_unavailable', field: 'rpcUrl' }],
    });
  }
  // A configured index the market cannot confirm is used as given (the chain checks it when it
  // runs); only a readable market refuses it.
  for (const chain of [offline, unreachable]) {
    expect(await chain.buildDeposit(request(owner, venue('2'), 5_000_000n))).toMatchObject({
      status: 'prepared',
    });
  }
});
