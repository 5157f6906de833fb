import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { newPlanId } from '@yieldrouter/schemas';
import type {
  ChainAdapter,
  UnsignedLeg,
  UnsignedPayload,
  VenueOnChain,
} from '@yieldrouter/schemas';
import {
  bedAdapter,
  kaminoVenue,
  legTransaction,
  onlyLeg,
  signLeg,
  startRouterBed,
} from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

// Issue 44 on Solana: a leg simulated with simulateTransaction (account snapshots, litesvm in
// the bed) moves what the landed transaction moves, token account by token account; a leg with
// a swapped account shows where the money really goes.

let bed: RouterBed;
let adapter: ChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  adapter = bedAdapter(bed);
  venue = kaminoVenue(bed);
});
afterAll(() => bed.stop());

async function buildLeg(owner: Keypair, action: 'deposit' | 'withdraw', amountMicros: bigint) {
  const request = {
    planId: newPlanId(),
    owner: owner.publicKey.toBase58(),
    amountMicros,
    target: { kind: 'venue' as const, venue },
  };
  const build =
    action === 'deposit'
      ? await adapter.buildDeposit(request)
      : await adapter.buildWithdraw(request);
  return onlyLeg(build);
}

const simulate = (owner: Keypair, legs: readonly UnsignedLeg[]) =>
  adapter.simulateLegs!({
    owner: owner.publicKey.toBase58(),
    payloads: legs.map((leg) => leg.payload),
  });

async function land(owner: Keypair, leg: UnsignedLeg) {
  const submitted = await adapter.broadcast({ transaction: signLeg(leg, owner) });
  if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
  return adapter.readLegChanges!(submitted.txId);
}

const ata = (mint: string, holder: PublicKey) =>
  getAssociatedTokenAddressSync(new PublicKey(mint), holder, true).toBase58();

describe('simulateSolanaLegs on the bed', () => {
  it('an honest kamino deposit and withdrawal: simulated changes are the landed ones', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    const { reserveLiquiditySupply, reserveCollateralMint } = venue.ids as Record<string, string>;
    for (const [action, amount] of [
      ['deposit', 4_000_000n],
      ['withdraw', 1_500_000n],
    ] as const) {
      const leg = await buildLeg(owner, action, amount);
      const simulated = await simulate(owner, [leg]);
      expect(simulated).toMatchObject({
        status: 'ok',
        method: 'simulateTransaction',
        usdc: bed.usdcMint,
      });
      if (simulated.status !== 'ok') throw new Error('not simulated');
      const [only] = simulated.legs;
      expect(only?.outcome).toBe('ok');
      const usdc = only?.changes.filter((change) => change.asset === bed.usdcMint) ?? [];
      const sign = action === 'deposit' ? 1n : -1n;
      expect(usdc).toEqual(
        expect.arrayContaining([
          {
            account: ata(bed.usdcMint, owner.publicKey),
            holder: owner.publicKey.toBase58(),
            asset: bed.usdcMint,
            delta: -sign * amount,
          },
          expect.objectContaining({ account: reserveLiquiditySupply, delta: sign * amount }),
        ]),
      );
      expect(usdc).toHaveLength(2);
      // The receipt token (kamino's collateral mint) moves too.
      expect(only?.changes.some((change) => change.asset === reserveCollateralMint)).toBe(true);
      // Nothing landed: the owner still holds what the leg would move.
      const landed = await land(owner, leg);
      expect(landed).toEqual({ status: 'ok', changes: only?.changes, block: expect.any(String) });
    }
  });

  it('a leg with its destination token account swapped: the simulation shows who really gets it', async () => {
    const owner = bed.createFundedKeypair();
    const payee = Keypair.generate().publicKey;
    const thief = Keypair.generate().publicKey;
    bed.mintUsdc(owner.publicKey, 3_000_000n);
    const build = await adapter.buildTransfer({
      planId: newPlanId(),
      owner: owner.publicKey.toBase58(),
      recipient: payee.toBase58(),
      amountMicros: 2_000_000n,
    });
    const leg = onlyLeg(build);
    const transaction = legTransaction(leg);
    // The payee's token account and wallet replaced by the thief's (its create still checks out).
    const keys = transaction.message.staticAccountKeys;
    for (const [from, to] of [
      [ata(bed.usdcMint, payee), ata(bed.usdcMint, thief)],
      [payee.toBase58(), thief.toBase58()],
    ] as const) {
      const at = keys.findIndex((key) => key.toBase58() === from);
      expect(at).toBeGreaterThan(0);
      keys[at] = new PublicKey(to);
    }
    const swapped: UnsignedLeg = {
      ...leg,
      payload: {
        ...(leg.payload as Extract<UnsignedPayload, { encoding: 'solana-v0-base64' }>),
        transaction: Buffer.from(
          new VersionedTransaction(transaction.message).serialize(),
        ).toString('base64'),
      },
    };
    const simulated = await simulate(owner, [swapped]);
    if (simulated.status !== 'ok') throw new Error(JSON.stringify(simulated));
    const changes = simulated.legs[0]?.outcome === 'ok' ? simulated.legs[0].changes : [];
    expect(changes).toContainEqual(
      expect.objectContaining({ holder: thief.toBase58(), delta: 2_000_000n }),
    );
    expect(changes.some((change) => change.holder === payee.toBase58())).toBe(false);
  });

  it('says unavailable, with the reason, when it cannot simulate', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 2_000_000n);
    const leg = await buildLeg(owner, 'deposit', 1_000_000n);
    // Several legs: the first runs on the current state, the later ones wait for it to settle.
    expect(await simulate(owner, [leg, leg])).toMatchObject({
      status: 'ok',
      legs: [
        { outcome: 'ok', changes: expect.arrayContaining([expect.anything()]) },
        { outcome: 'deferred', changes: [] },
      ],
    });
    const offline = bedAdapter(bed, { rpcUrl: undefined });
    expect(
      await offline.simulateLegs!({ owner: owner.publicKey.toBase58(), payloads: [leg.payload] }),
    ).toMatchObject({ status: 'unavailable', reason: 'rpc_not_configured' });
    const silent = bedAdapter(bed, { rpcUrl: 'http://127.0.0.1:9' });
    expect(
      await silent.simulateLegs!({ owner: owner.publicKey.toBase58(), payloads: [leg.payload] }),
    ).toMatchObject({ status: 'unavailable', reason: 'rpc_error' });
  });

  it('reads a leg that reverts as reverted, with the runtime error', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    const leg = await buildLeg(owner, 'deposit', 5_000_000n);
    const simulated = await simulate(owner, [leg]);
    expect(simulated).toMatchObject({
      status: 'ok',
      legs: [
        { outcome: 'reverted', detail: expect.stringContaining('InstructionError'), changes: [] },
      ],
    });
  });
});
