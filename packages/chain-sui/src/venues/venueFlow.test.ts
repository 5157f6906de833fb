import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { normalizeStructTag } from '@mysten/sui/utils';
import { planIdToBytes } from '@yieldrouter/schemas';
import type { LegBuild, LegRequest, VenueOnChain } from '@yieldrouter/schemas';

import type { SuiChainAdapter } from '../adapter';
import { OTHER_PLAN_ID, PLAN_ID, USDC } from '../testFixtures';
import { resolveSuiVenue } from './suiVenue';
import { appendVenueDeposit } from './venueCalls';
import { fundedWallet, startVenueBed, walletSend } from './walletSend.testing';

// Each Sui venue end to end on the bed: the owner's wallet resolves, signs and executes the leg
// the adapter built; the bed runs the protocol's functions; the receipt settles from the events
// and balance changes; the position is valued from the protocol's state as it accrues; the
// withdrawal burns the receipts for the USDC asked.

let fake: SuiFake;
let client: SuiJsonRpcClient;
let adapter: SuiChainAdapter;
beforeAll(async () => {
  ({ fake, client, adapter } = await startVenueBed());
});
afterAll(() => fake.stop());

const funded = () => fundedWallet(fake);

/** What the owner's wallet does with an unresolved leg: resolve, sign, execute. */
const signAndSend = (wallet: Ed25519Keypair, build: LegBuild) =>
  walletSend(fake, client, wallet, build);

const venueOf = (venueId: string, ids: VenueOnChain['ids']): VenueOnChain => ({
  venueId,
  chain: 'sui',
  standard: 'router-adapter',
  ids,
});
const request = (owner: string, venue: VenueOnChain, amountMicros: bigint): LegRequest => ({
  planId: PLAN_ID,
  owner,
  amountMicros,
  target: { kind: 'venue', venue },
});
const usdcOf = async (owner: string) =>
  BigInt((await client.getBalance({ owner, coinType: USDC })).totalBalance);

interface Bed {
  readonly venue: VenueOnChain;
  /** Interest accrues on the venue. */
  accrue(): void;
  /** What the protocol's state says `shares` are worth now. */
  value(owner: string, shares: bigint): bigint;
}

const beds: Record<string, () => Bed> = {
  suilend: () => {
    const bed = fake.addSuilend({ usdc: USDC, availableAmount: 1_000_000_000_000n });
    return {
      venue: venueOf('suilend', bed.ids),
      accrue: () => bed.accrue(37_000_000_123n),
      value: (_owner, shares) => bed.redeemValue(shares),
    };
  },
  navi: () => {
    const bed = fake.addNavi({ usdc: USDC });
    return {
      venue: venueOf('navi', bed.ids),
      accrue: () => bed.accrue(3_7001n, 1_000_000n),
      value: (owner) => bed.balanceValue(owner),
    };
  },
  scallop: () => {
    const bed = fake.addScallop({ usdc: USDC, cash: 1_000_000_000_000n });
    return {
      venue: venueOf('scallop', bed.ids),
      accrue: () => bed.accrue(41_000_000_777n),
      value: (_owner, shares) => bed.redeemValue(shares),
    };
  },
};

describe.each(Object.keys(beds))('%s on the bed', (venueId) => {
  let bed: Bed;
  beforeAll(() => {
    bed = beds[venueId]!();
  });

  it('deposit → settle → accrue → position from the protocol state → withdraw', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const deposit = await signAndSend(
      wallet,
      await adapter.buildDeposit(request(owner, bed.venue, 20_000_000n)),
    );
    expect(deposit.status).toBe('success');
    // Interest accrues before the keeper settles: the shares are what the transaction minted.
    bed.accrue();
    const settled = await adapter.readReceipt({
      txId: deposit.digest,
      planId: PLAN_ID,
      owner,
      action: 'deposit',
      target: { kind: 'venue', venue: bed.venue },
    });
    expect(settled).toMatchObject({ status: 'confirmed', amountMicros: 20_000_000n });
    if (settled.status !== 'confirmed' || settled.shares === null) throw new Error('no shares');
    const shares = settled.shares;
    expect(await usdcOf(owner)).toBe(30_000_000n);

    bed.accrue();
    const position = await adapter.readPosition(bed.venue, owner, shares);
    if (position.status !== 'ok') throw new Error(JSON.stringify(position));
    // The books hold 20 USDC: harvest books exactly what the protocol's state adds to it.
    const worth = bed.value(owner, shares);
    expect(position.sharesValueMicros).toBe(worth);
    expect(position.ownerValueMicros).toBe(worth);
    expect(worth).toBeGreaterThan(20_000_000n);

    const withdrawal = await signAndSend(
      wallet,
      await adapter.buildWithdraw(request(owner, bed.venue, 15_000_000n)),
    );
    expect(withdrawal.status).toBe('success');
    const back = await adapter.readReceipt({
      txId: withdrawal.digest,
      planId: PLAN_ID,
      owner,
      action: 'withdraw',
      target: { kind: 'venue', venue: bed.venue },
    });
    expect(back).toMatchObject({ status: 'confirmed' });
    if (back.status !== 'confirmed') throw new Error('not confirmed');
    // At least the 15 USDC asked, and never more than one receipt unit's worth over it.
    expect(back.amountMicros).toBeGreaterThanOrEqual(15_000_000n);
    expect(back.amountMicros).toBeLessThanOrEqual(15_000_002n);
    expect(await usdcOf(owner)).toBe(30_000_000n + back.amountMicros);
  });

  /** The receipt query of a withdrawal leg of this plan from this bed's venue. */
  const withdrawalOf = (txId: string, owner: string) => ({
    txId,
    planId: PLAN_ID,
    owner,
    action: 'withdraw' as const,
    target: { kind: 'venue' as const, venue: bed.venue },
  });

  it('a withdrawal with its skim: the treasury receives it in the same transaction', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const treasury = new Ed25519Keypair().toSuiAddress();
    const deposit = await signAndSend(
      wallet,
      await adapter.buildDeposit(request(owner, bed.venue, 20_000_000n)),
    );
    expect(deposit.status).toBe('success');
    bed.accrue();
    const skim = { recipient: treasury, amountMicros: 123_456n };
    const withdrawal = await signAndSend(
      wallet,
      await adapter.buildWithdraw({ ...request(owner, bed.venue, 10_000_000n), skim }),
    );
    expect(withdrawal.status).toBe('success');
    const query = withdrawalOf(withdrawal.digest, owner);
    const back = await adapter.readReceipt({ ...query, skimRecipient: treasury });
    if (back.status !== 'confirmed') throw new Error(JSON.stringify(back));
    expect(back.skimMicros).toBe(123_456n);
    expect(await usdcOf(treasury)).toBe(123_456n);
    expect(await usdcOf(owner)).toBe(30_000_000n + back.amountMicros);
    // The venue paid at least the 10 USDC asked: the owner got it less the skim.
    expect(back.amountMicros + 123_456n).toBeGreaterThanOrEqual(10_000_000n);
    // Read without the treasury, the owner's change is not what the venue paid: not this leg.
    expect(await adapter.readReceipt(query)).toMatchObject({ status: 'mismatch' });
  });

  it('a withdrawal signed without its skim settles with a skim of 0', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const treasury = new Ed25519Keypair().toSuiAddress();
    await signAndSend(wallet, await adapter.buildDeposit(request(owner, bed.venue, 8_000_000n)));
    const withdrawal = await signAndSend(
      wallet,
      await adapter.buildWithdraw(request(owner, bed.venue, 4_000_000n)),
    );
    const back = await adapter.readReceipt({
      ...withdrawalOf(withdrawal.digest, owner),
      skimRecipient: treasury,
    });
    expect(back).toMatchObject({ status: 'confirmed', skimMicros: 0n });
  });

  it("settles nothing from another sender's, another plan's or another venue's transaction", async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const stranger = funded();
    const theirs = await signAndSend(
      stranger,
      await adapter.buildDeposit(request(stranger.toSuiAddress(), bed.venue, 5_000_000n)),
    );
    const otherPlan = await signAndSend(
      wallet,
      await adapter.buildDeposit({
        ...request(owner, bed.venue, 5_000_000n),
        planId: OTHER_PLAN_ID,
      }),
    );
    const query = (txId: string, venue = bed.venue) =>
      adapter.readReceipt({
        txId,
        planId: PLAN_ID,
        owner,
        action: 'deposit',
        target: { kind: 'venue', venue },
      });
    expect(await query(theirs.digest)).toMatchObject({ status: 'mismatch' });
    expect(await query(otherPlan.digest)).toMatchObject({
      status: 'mismatch',
      reason: 'the transaction carries another plan id',
    });
    const elsewhere = Object.keys(beds).find((id) => id !== venueId) ?? '';
    const other = venueOf(elsewhere, { ...bed.venue.ids });
    expect((await query(otherPlan.digest, other)).status).not.toBe('confirmed');
  });

  // Navi has no receipt coin: it credits the sender's balance in its storage.
  const receiptVenue = venueId === 'navi' ? undefined : it;
  receiptVenue?.("settles nothing when the receipt goes to another owner's coin", async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const thief = new Ed25519Keypair().toSuiAddress();
    const resolved = resolveSuiVenue(bed.venue, normalizeStructTag(USDC));
    if (resolved.status !== 'ok') throw new Error('venue');
    // The owner's own call with this plan's id, but the receipt transferred to someone else.
    const tx = new Transaction();
    tx.setSender(owner);
    tx.pure.vector('u8', planIdToBytes(PLAN_ID));
    const coin = tx.add(coinWithBalance({ type: USDC, balance: 4_000_000n }));
    appendVenueDeposit(
      {
        tx,
        venue: resolved.venue,
        usdc: normalizeStructTag(USDC),
        owner: thief,
        object: (id) => tx.object(id),
      },
      coin,
      4_000_000n,
    );
    tx.setGasPrice(fake.referenceGasPrice);
    tx.setGasBudget(10_000_000n);
    const bytes = await tx.build({ client });
    const { signature } = await wallet.signTransaction(bytes);
    const sent = await client.executeTransactionBlock({ transactionBlock: bytes, signature });
    const receipt = await adapter.readReceipt({
      txId: sent.digest,
      planId: PLAN_ID,
      owner,
      action: 'deposit',
      target: { kind: 'venue', venue: bed.venue },
    });
    expect(receipt).toMatchObject({ status: 'mismatch' });
  });

  receiptVenue?.(
    'withdrawing more than the receipts are worth burns them all, no more',
    async () => {
      const wallet = funded();
      const owner = wallet.toSuiAddress();
      const deposit = await signAndSend(
        wallet,
        await adapter.buildDeposit(request(owner, bed.venue, 9_000_000n)),
      );
      expect(deposit.status).toBe('success');
      bed.accrue();
      const position = await adapter.readPosition(bed.venue, owner, 0n);
      if (position.status !== 'ok') throw new Error(JSON.stringify(position));
      const everything = await signAndSend(
        wallet,
        await adapter.buildWithdraw(request(owner, bed.venue, position.ownerValueMicros + 1n)),
      );
      expect(everything.status).toBe('success');
      const receipt = venueOf(venueId, bed.venue.ids).ids.receiptCoinType ?? '';
      expect((await client.getBalance({ owner, coinType: receipt })).totalBalance).toBe('0');
      expect(await usdcOf(owner)).toBe(41_000_000n + position.ownerValueMicros);
    },
  );

  it("fails the leg on its own failed transaction, never on someone else's", async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const build = await adapter.buildDeposit(request(owner, bed.venue, 7_000_000n));
    if (build.status !== 'prepared' || build.legs[0]?.payload.encoding !== 'sui-transaction-json') {
      throw new Error('not prepared');
    }
    const tx = Transaction.from(build.legs[0].payload.transaction);
    tx.setGasPrice(fake.referenceGasPrice);
    tx.setGasBudget(10_000_000n);
    const bytes = await tx.build({ client });
    const own = fake.recordTransaction({
      transaction: bytes,
      status: 'failure',
      error: 'MoveAbort',
    });
    const stranger = funded();
    const theirBuild = await adapter.buildDeposit(
      request(stranger.toSuiAddress(), bed.venue, 7_000_000n),
    );
    if (
      theirBuild.status !== 'prepared' ||
      theirBuild.legs[0]?.payload.encoding !== 'sui-transaction-json'
    ) {
      throw new Error('not prepared');
    }
    const theirTx = Transaction.from(theirBuild.legs[0].payload.transaction);
    theirTx.setGasPrice(fake.referenceGasPrice);
    theirTx.setGasBudget(10_000_000n);
    const theirs = fake.recordTransaction({
      transaction: await theirTx.build({ client }),
      status: 'failure',
    });
    const query = (txId: string) =>
      adapter.readReceipt({
        txId,
        planId: PLAN_ID,
        owner,
        action: 'deposit',
        target: { kind: 'venue', venue: bed.venue },
      });
    expect(await query(own)).toMatchObject({ status: 'failed' });
    expect(await query(theirs)).toMatchObject({ status: 'mismatch' });
  });
});
