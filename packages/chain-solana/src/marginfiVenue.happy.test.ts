import { Keypair, PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import { deployMarginfi } from '@yieldrouter/chain-beds';
import type { SolanaMarginfiBank } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter, VenueOnChain } from '@yieldrouter/schemas';
import {
  marginfiAccountAddress,
  marginfiAccountInitializePdaInstruction,
  marginfiDepositInstruction,
} from './instructions/marginfiInstructions';
import { planMemoInstruction } from './instructions/planMemo';
import { bedAdapter, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { routedVenueRun } from './testing/routedVenueRun';
import { associatedTokenAccount } from './tokenAccounts';
import {
  I80F48_FRACTION_BITS,
  decodeMarginfiAccount,
  decodeMarginfiBank,
  marginfiAssetShares,
  marginfiAssetValue,
} from './venueState/marginfiState';

// marginfi through our router on the bed: the stand-in at marginfi's mainnet program id, its USDC
// bank registered with the router as a marginfi adapter; the legs the adapter builds run there.
let bed: RouterBed;
let marginfi: SolanaMarginfiBank;
let adapter: ChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  marginfi = deployMarginfi(bed, { router: bed.router });
  adapter = bedAdapter(bed);
  venue = { venueId: 'marginfi', chain: 'solana', standard: 'router-adapter', ids: marginfi.ids };
});
afterAll(() => bed.stop());

type Address = Parameters<RouterBed['svm']['getAccount']>[0];
const program = () => new PublicKey(marginfi.program);
const group = () => new PublicKey(marginfi.group);
const bankKey = () => new PublicKey(marginfi.bank);

function bankState() {
  const account = bed.svm.getAccount(marginfi.bank as Address);
  if (!account.exists) throw new Error('no bank');
  return decodeMarginfiBank(account.data);
}

/** The owner's asset shares in the bank (I80F48 raw), from the MarginfiAccount on the bed. */
function sharesOf(owner: PublicKey): bigint {
  const address = marginfiAccountAddress(program(), group(), owner).toBase58();
  const account = bed.svm.getAccount(address as Address);
  if (!account.exists) return 0n;
  return marginfiAssetShares(decodeMarginfiAccount(account.data), bankKey());
}

/** Signs and lands `instructions` as `payer`, not through any leg builder; its signature. */
function sendSigned(instructions: TransactionInstruction[], payer: Keypair): string {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: bed.latestBlockhash(),
    instructions,
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  transaction.sign([payer]);
  const outcome = bed.send(transaction);
  if (!outcome.landed || outcome.entry.err !== null) throw new Error('not landed');
  return bs58.encode(transaction.signatures[0] ?? new Uint8Array());
}

describe('marginfi through our router program', () => {
  it('deposit → interest → withdraw settles to the micro, the skim on the yield only', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 50_000_000n);

    // The first deposit opens the owner's MarginfiAccount at its PDA in the same transaction.
    const deposit = await routedVenueRun(adapter, venue, owner, 'deposit', 20_000_000n);
    const shares = sharesOf(owner.publicKey);
    const whole = shares >> I80F48_FRACTION_BITS;
    expect(whole).toBe(20_000_000n); // share value 1.0 at the start
    expect(deposit.receipt).toMatchObject({
      status: 'confirmed',
      amountMicros: 20_000_000n,
      shares: whole,
    });
    expect(bed.transaction(deposit.txId)?.logMessages).toEqual(
      expect.arrayContaining([
        `Program log: svc:${deposit.planId} deposit_to_venue amount=20000000`,
        `Program log: svc:${deposit.planId} venue_receipts delta=20000000`,
      ]),
    );

    // Interest: 51 USDC over 1,020 USDC lent (5 %), every share worth that much more.
    marginfi.accrue(51_000_000n);
    const value = bankState().assetShareValue;
    const position = await adapter.readPosition(venue, owner.publicKey.toBase58(), whole);
    expect(position).toMatchObject({
      status: 'ok',
      ownerShares: whole,
      sharesValueMicros: marginfiAssetValue(whole << I80F48_FRACTION_BITS, value),
    });
    if (position.status !== 'ok') throw new Error('unreachable');
    expect(position.sharesValueMicros).toBeGreaterThanOrEqual(20_999_999n);
    expect(position.sharesValueMicros).toBeLessThanOrEqual(21_000_000n);

    // A full exit: asked for more than it holds, the leg takes what its shares are worth.
    const worth = marginfiAssetValue(shares, value);
    const usdcBefore = bed.usdcBalance(owner.publicKey);
    const treasuryBefore = bed.usdcBalance(bed.router.treasury);
    const withdraw = await routedVenueRun(adapter, venue, owner, 'withdraw', 1_000_000_000n);
    const skim = bed.usdcBalance(bed.router.treasury) - treasuryBefore;
    const received = bed.usdcBalance(owner.publicKey) - usdcBefore;
    expect(received + skim).toBe(worth); // what the venue paid, to the micro
    expect(skim).toBe(((worth - 20_000_000n) * 500n) / 10_000n); // 500 bps of the yield
    const burnt = whole - (sharesOf(owner.publicKey) >> I80F48_FRACTION_BITS);
    expect(withdraw.receipt).toMatchObject({
      status: 'confirmed',
      amountMicros: received,
      skimMicros: skim,
      shares: burnt,
    });
    expect(bed.transaction(withdraw.txId)?.logMessages).toContain(
      `Program log: svc:${withdraw.planId} withdraw_from_venue amount=${worth}`,
    );
  });

  it('a deposit made at marginfi directly, or a receipt for another plan, settles nothing', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 5_000_000n);
    const accounts = { program: program(), group: group(), bank: bankKey() };
    const bank = { ...accounts, liquidityVault: new PublicKey(marginfi.liquidityVault) };
    const planId = newPlanId();
    const direct = sendSigned(
      [
        marginfiAccountInitializePdaInstruction(accounts, owner.publicKey),
        marginfiDepositInstruction(
          bank,
          {
            owner: owner.publicKey,
            marginfiAccount: marginfiAccountAddress(program(), group(), owner.publicKey),
            ownerLiquidity: associatedTokenAccount(owner.publicKey, new PublicKey(bed.usdcMint)),
          },
          5_000_000n,
        ),
        planMemoInstruction(planId),
      ],
      owner,
    );
    expect(sharesOf(owner.publicKey)).toBeGreaterThan(0n);
    const query = {
      txId: direct,
      planId,
      owner: owner.publicKey.toBase58(),
      action: 'deposit' as const,
      target: { kind: 'venue' as const, venue },
    };
    expect(await adapter.readReceipt(query)).toMatchObject({ status: 'mismatch' });

    // A routed deposit's transaction read for another plan id: no event of that plan.
    bed.mintUsdc(owner.publicKey, 2_000_000n);
    const routed = await routedVenueRun(adapter, venue, owner, 'deposit', 2_000_000n);
    expect(routed.receipt).toMatchObject({ status: 'confirmed', amountMicros: 2_000_000n });
    expect(
      await adapter.readReceipt({ ...query, txId: routed.txId, planId: newPlanId() }),
    ).toMatchObject({ status: 'mismatch' });
    // The shares deposited at marginfi directly were never recorded by the router: a routed exit
    // of all of them is refused on chain (more receipts than the venue position holds).
    await expect(routedVenueRun(adapter, venue, owner, 'withdraw', 1_000_000_000n)).rejects.toThrow(
      /Custom":15|Custom\(15\)|0xf/,
    );
  });

  it('an account holding another bank too, or a bank that is not one: blocked, never a number', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 3_000_000n);
    await routedVenueRun(adapter, venue, owner, 'deposit', 3_000_000n);
    const address = marginfiAccountAddress(program(), group(), owner.publicKey).toBase58();
    const account = bed.svm.getAccount(address as Address);
    if (!account.exists) throw new Error('no MarginfiAccount');
    // A second active balance (another bank) in slot 1: the router's withdrawal observes one.
    const data = Buffer.from(account.data);
    data.writeUInt8(1, 72 + 104);
    Keypair.generate()
      .publicKey.toBuffer()
      .copy(data, 72 + 104 + 1);
    bed.svm.setAccount({ ...account, data: new Uint8Array(data) });
    const request = { planId: newPlanId(), owner: owner.publicKey.toBase58(), amountMicros: 1n };
    expect(
      await adapter.buildWithdraw({ ...request, target: { kind: 'venue', venue } }),
    ).toMatchObject({
      status: 'blocked',
      blockers: [expect.objectContaining({ code: 'venue_not_configured', field: 'owner' })],
    });
    // A configured bank that is no bank: the position is unavailable, not zero.
    const notABank = { ...venue, ids: { ...marginfi.ids, bank: marginfi.group } };
    expect(await adapter.readPosition(notABank, request.owner, 1n)).toMatchObject({
      status: 'unavailable',
    });
  });

  it('a withdrawal with nothing deposited is blocked nothing_staked; a missing id is named', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    const request = { planId: newPlanId(), owner, amountMicros: 1_000_000n };
    expect(
      await adapter.buildWithdraw({ ...request, target: { kind: 'venue', venue } }),
    ).toMatchObject({
      status: 'blocked',
      blockers: [expect.objectContaining({ code: 'nothing_staked' })],
    });
    const { oracle: _dropped, ...ids } = marginfi.ids;
    expect(
      await adapter.buildDeposit({
        ...request,
        target: { kind: 'venue', venue: { ...venue, ids } },
      }),
    ).toMatchObject({
      status: 'blocked',
      blockers: [expect.objectContaining({ field: 'ids.oracle' })],
    });
  });
});
