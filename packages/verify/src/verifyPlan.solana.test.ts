import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { RouterBed } from '@yieldrouter/chain-solana/src/testing/bedAdapter';
import { bedAdapter, startRouterBed } from '@yieldrouter/chain-solana/src/testing/bedAdapter';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter, LegRequest, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import { planOf, withLeg } from './testing/planOf';
import type { VerifiableLeg } from './verdict';
import { verifyPlan } from './verifyPlan';

// Solana legs as chain-solana builds them on the bed (our router + the klend stand-in), then
// tampered the way a compromised server could, after prepare.
let bed: RouterBed;
let adapter: ChainAdapter;
let venue: VenueOnChain;
let venues: string[];
beforeAll(async () => {
  bed = await startRouterBed();
  adapter = bedAdapter(bed);
  const ids = bed.router.kamino.ids;
  venue = { venueId: 'kamino', chain: 'solana', standard: 'router-adapter', ids };
  const { programId, yieldRouter, adapterRegistry } = bed.router;
  // What the owner lists: the router's ids and the venue's (GET /svc/packages serves both).
  venues = [programId, yieldRouter, adapterRegistry, bed.usdcMint, ...Object.values(ids)].filter(
    (id): id is string => typeof id === 'string',
  );
});
afterAll(() => bed.stop());

const owner = Keypair.generate().publicKey.toBase58();
const thief = Keypair.generate().publicKey;

function request(planId: string, target: LegRequest['target']): LegRequest {
  return { planId, owner, amountMicros: 20_000_000n, target };
}

async function legsOf(
  build: ReturnType<ChainAdapter['buildDeposit']>,
): Promise<readonly UnsignedLeg[]> {
  const built = await build;
  if (built.status !== 'prepared') throw new Error(JSON.stringify(built));
  return built.legs;
}

/** A prepared plan of one router deposit leg. */
async function routerDepositPlan() {
  const planId = newPlanId();
  const build = adapter.buildDeposit(request(planId, { kind: 'router' }));
  return planOf(planId, owner, await legsOf(build));
}

const decode = (leg: VerifiableLeg) =>
  VersionedTransaction.deserialize(Buffer.from(String(leg.transaction), 'base64'));
const encode = (leg: VerifiableLeg, transaction: VersionedTransaction): VerifiableLeg => ({
  ...leg,
  transaction: Buffer.from(transaction.serialize()).toString('base64'),
});

describe('verifyPlan on Solana legs', () => {
  it('verifies honest router and kamino deposits and withdrawals', async () => {
    for (const [action, target] of [
      ['deposit', { kind: 'router' }],
      ['withdraw', { kind: 'router' }],
      ['deposit', { kind: 'venue', venue }],
    ] as const) {
      const planId = newPlanId();
      const build =
        action === 'deposit'
          ? adapter.buildDeposit(request(planId, target))
          : adapter.buildWithdraw(request(planId, target));
      const verdict = verifyPlan(planOf(planId, owner, await legsOf(build)), {
        owner,
        venues,
        feeRecipients: [bed.router.treasury],
      });
      expect({ action, target: target.kind, verdict }).toMatchObject({
        verdict: { status: 'verified', reasons: [] },
      });
    }
  });

  /**
   * A kamino deposit as the adapter builds it, the static account `pick` chooses replaced by
   * `replacement`: refused with one `unknown_destination` naming it.
   */
  async function expectSwapRefused(
    pick: (transaction: VersionedTransaction) => number,
    replacement: PublicKey,
  ) {
    const planId = newPlanId();
    const plan = planOf(
      planId,
      owner,
      await legsOf(adapter.buildDeposit(request(planId, { kind: 'venue', venue }))),
    );
    const tampered = withLeg(plan, 0, (leg) => {
      const transaction = decode(leg);
      const index = pick(transaction);
      expect(index).toBeGreaterThan(0);
      transaction.message.staticAccountKeys[index] = replacement;
      return encode(leg, transaction);
    });
    const verdict = verifyPlan(tampered, { owner, venues, feeRecipients: [bed.router.treasury] });
    expect(verdict.status).toBe('rejected');
    expect(verdict.reasons).toEqual([
      expect.objectContaining({
        code: 'unknown_destination',
        message: expect.stringContaining(replacement.toBase58()),
      }),
    ]);
  }

  it('catches an instruction with a swapped account: the receipt goes to another token account', async () => {
    // The last writable non-signer account the owner holds (the cToken account the venue mints to).
    await expectSwapRefused(
      ({ message }) =>
        message.staticAccountKeys.findLastIndex(
          (_, at) => at > 0 && message.isAccountWritable(at) && !message.isAccountSigner(at),
        ),
      thief,
    );
  });

  it("catches an instruction with a swapped account: the deposit's vault is another's token account", async () => {
    const vault = String(bed.router.kamino.ids.reserveLiquiditySupply);
    await expectSwapRefused(
      ({ message }) => message.staticAccountKeys.findIndex((key) => key.toBase58() === vault),
      getAssociatedTokenAddressSync(new PublicKey(bed.usdcMint), thief),
    );
  });

  it('catches a changed amount or plan id in the router instruction, a missing memo and another fee payer', async () => {
    const plan = await routerDepositPlan();
    const router = bed.router.programId;
    const codes = (change: (transaction: VersionedTransaction) => void) =>
      verifyPlan(
        withLeg(plan, 0, (leg) => {
          const transaction = decode(leg);
          change(transaction);
          return encode(leg, transaction);
        }),
        { owner, venues },
      ).reasons.map((reason) => reason.code);
    const routerInstruction = (transaction: VersionedTransaction) => {
      const keys = transaction.message.staticAccountKeys;
      const found = transaction.message.compiledInstructions.find(
        (instruction) => keys[instruction.programIdIndex]?.toBase58() === router,
      );
      if (!found) throw new Error('no router instruction');
      return found;
    };
    expect(
      codes((transaction) => {
        const data = Buffer.from(routerInstruction(transaction).data);
        data.writeBigUInt64LE(20_000_001n, 8);
        routerInstruction(transaction).data = data;
      }),
    ).toEqual(['amount_mismatch']);
    expect(
      codes((transaction) => {
        const data = Buffer.from(routerInstruction(transaction).data);
        data[31] = (data[31] ?? 0) ^ 1;
        routerInstruction(transaction).data = data;
      }),
    ).toEqual(['plan_tag_mismatch']);
    expect(
      codes((transaction) => {
        const memo = transaction.message.compiledInstructions.at(-1);
        if (memo) memo.data = Buffer.from('svc:plan_ffffffffffffffffffffffffffffffff');
      }),
    ).toEqual(['plan_tag_missing']);
    expect(
      codes((transaction) => {
        transaction.message.staticAccountKeys[0] = thief;
      }),
    ).toContain('sender_not_owner');
  });

  it('says incomplete, not verified, when a lookup table is not supplied', async () => {
    const plan = await routerDepositPlan();
    const withTable = withLeg(plan, 0, (leg) => {
      const transaction = decode(leg);
      transaction.message.addressTableLookups.push({
        accountKey: new PublicKey(Keypair.generate().publicKey),
        writableIndexes: [],
        readonlyIndexes: [0],
      });
      return encode(leg, transaction);
    });
    const verdict = verifyPlan(withTable, { owner, venues });
    expect(verdict.status).toBe('incomplete');
    expect(verdict.gaps.map((gap) => gap.code)).toEqual(['lookup_table_unresolved']);
  });
});

describe('the router layout the verifier reads', () => {
  it('uses the discriminators chain-solana encodes', async () => {
    const { routerDiscriminator } =
      await import('@yieldrouter/chain-solana/src/instructions/routerInstructionData');
    const plan = await routerDepositPlan();
    const effects = verifyPlan(plan, { owner, venues }).legs[0]?.effects ?? [];
    expect(effects).toContainEqual(
      expect.objectContaining({ kind: 'venue_call', call: 'deposit', amount: 20_000_000n }),
    );
    const data = decode(plan.legs[0]!).message.compiledInstructions.find(
      (instruction) => instruction.data.length === 32,
    )?.data;
    expect(Buffer.from(data ?? []).subarray(0, 8)).toEqual(routerDiscriminator('deposit'));
  });
});
