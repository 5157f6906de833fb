import { Keypair, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { newPlanId } from '@yieldrouter/schemas';
import type { PreparedLeg, UnsignedLeg } from '@yieldrouter/schemas';
import bs58 from 'bs58';
import { bedAdapter, legTransaction, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

let bed: RouterBed;
beforeAll(async () => {
  bed = await startRouterBed();
});
afterAll(() => bed.stop());

async function preparedLeg(owner: Keypair, amountMicros = 1_000_000n): Promise<UnsignedLeg> {
  return onlyLeg(
    await bedAdapter(bed).buildDeposit({
      planId: newPlanId(),
      owner: owner.publicKey.toBase58(),
      amountMicros,
      target: { kind: 'router' },
    }),
  );
}

const asPrepared = (leg: UnsignedLeg, owner: Keypair): PreparedLeg => ({
  planId: leg.planId,
  owner: owner.publicKey.toBase58(),
  payload: leg.payload,
});

const wire = (transaction: VersionedTransaction) =>
  Buffer.from(transaction.serialize()).toString('base64');

describe('checkSignedLeg (Solana)', () => {
  it('accepts the prepared transaction signed by the owner; the txId is its signature', async () => {
    const owner = Keypair.generate();
    const leg = await preparedLeg(owner);
    const transaction = signLeg(leg, owner);
    const check = await bedAdapter(bed).checkSignedLeg({ transaction }, asPrepared(leg, owner));
    const signature = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'))
      .signatures[0] as Uint8Array;
    expect(check).toEqual({ status: 'ok', txId: bs58.encode(signature) });
  });

  it('accepts a refreshed blockhash (the same instructions, signed again)', async () => {
    const owner = Keypair.generate();
    const leg = await preparedLeg(owner);
    const transaction = legTransaction(leg);
    transaction.message.recentBlockhash = bs58.encode(Buffer.alloc(32, 7));
    transaction.sign([owner]);
    const check = await bedAdapter(bed).checkSignedLeg(
      { transaction: wire(transaction) },
      asPrepared(leg, owner),
    );
    expect(check.status).toBe('ok');
  });

  it('refuses another leg, another amount or another fee payer, however well signed', async () => {
    const owner = Keypair.generate();
    const leg = await preparedLeg(owner, 1_000_000n);
    const other = await preparedLeg(owner, 2_000_000n);
    const adapter = bedAdapter(bed);
    expect(
      await adapter.checkSignedLeg({ transaction: signLeg(other, owner) }, asPrepared(leg, owner)),
    ).toEqual({ status: 'mismatch', reason: expect.stringContaining('not the prepared message') });

    const stranger = Keypair.generate();
    const theirs = await preparedLeg(stranger, 1_000_000n);
    expect(
      await adapter.checkSignedLeg(
        { transaction: signLeg(theirs, stranger) },
        asPrepared(leg, owner),
      ),
    ).toEqual({ status: 'mismatch', reason: expect.stringContaining('not the plan owner') });

    // The same instructions recompiled with an extra one appended: not the prepared message.
    const prepared = legTransaction(leg);
    const decompiled = TransactionMessage.decompile(prepared.message);
    decompiled.instructions.push(decompiled.instructions[decompiled.instructions.length - 1]!);
    const extended = new VersionedTransaction(decompiled.compileToV0Message());
    extended.sign([owner]);
    expect(
      (await adapter.checkSignedLeg({ transaction: wire(extended) }, asPrepared(leg, owner)))
        .status,
    ).toBe('mismatch');
  });

  it('refuses the unsigned or wrongly signed prepared transaction', async () => {
    const owner = Keypair.generate();
    const leg = await preparedLeg(owner);
    const adapter = bedAdapter(bed);
    expect(
      await adapter.checkSignedLeg(
        { transaction: wire(legTransaction(leg)) },
        asPrepared(leg, owner),
      ),
    ).toEqual({ status: 'mismatch', reason: expect.stringContaining('missing signature') });
    const forged = legTransaction(leg);
    forged.addSignature(owner.publicKey, Keypair.generate().secretKey.subarray(0, 64));
    expect(
      await adapter.checkSignedLeg({ transaction: wire(forged) }, asPrepared(leg, owner)),
    ).toEqual({ status: 'mismatch', reason: expect.stringContaining('does not verify') });
  });

  it('throws InvalidChainInputError for bytes that are not a Solana transaction', async () => {
    const owner = Keypair.generate();
    const leg = await preparedLeg(owner);
    for (const transaction of ['', 'not base64!', Buffer.from('hello').toString('base64')]) {
      await expect(
        bedAdapter(bed).checkSignedLeg({ transaction }, asPrepared(leg, owner)),
      ).rejects.toMatchObject({ name: 'InvalidChainInputError', field: 'transaction' });
    }
  });
});
