import {
  AccountLayout,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  Connection,
  Keypair,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { startSolanaBed } from './startSolanaBed';
import type { SolanaBed } from './startSolanaBed';

// simulateTransaction as web3.js (the published client) asks for it and reads it back: the
// unsigned leg run with the latest blockhash, the accounts after the run, nothing committed.

let bed: SolanaBed;
let connection: Connection;

beforeAll(async () => {
  bed = await startSolanaBed();
  connection = new Connection(bed.rpcUrl, { commitment: 'confirmed' });
});
afterAll(() => bed.stop());

/** An unsigned USDC transfer from `from` to `to`, on a blockhash that is not the bed's. */
function unsignedTransfer(from: PublicKey, to: PublicKey, amount: bigint) {
  const mint = new PublicKey(bed.usdcMint);
  const source = getAssociatedTokenAddressSync(mint, from);
  const destination = getAssociatedTokenAddressSync(mint, to);
  const message = new TransactionMessage({
    payerKey: from,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    instructions: [
      createAssociatedTokenAccountIdempotentInstruction(from, destination, to, mint),
      createTransferCheckedInstruction(source, mint, destination, from, amount, 6),
    ],
  }).compileToV0Message();
  return { transaction: new VersionedTransaction(message), source, destination };
}

const amountOf = (data: string[] | undefined) =>
  data ? AccountLayout.decode(Buffer.from(data[0] ?? '', 'base64')).amount : undefined;

it('runs an unsigned transaction on the latest blockhash and returns the accounts after it', async () => {
  const owner = bed.createFundedKeypair();
  const payee = Keypair.generate().publicKey;
  bed.mintUsdc(owner.publicKey, 5_000_000n);
  const { transaction, source, destination } = unsignedTransfer(owner.publicKey, payee, 1_250_000n);

  const { context, value } = await connection.simulateTransaction(transaction, {
    sigVerify: false,
    replaceRecentBlockhash: true,
    accounts: { encoding: 'base64', addresses: [source.toBase58(), destination.toBase58()] },
  });
  expect(value.err).toBeNull();
  expect(value.unitsConsumed).toBeGreaterThan(0);
  expect(value.logs?.join('\n')).toContain(`Program ${TOKEN_PROGRAM_ID.toBase58()} success`);
  // In the RPC's answer; web3.js 1.x passes it through without typing it.
  const { replacementBlockhash } = value as { replacementBlockhash?: { blockhash: string } };
  expect(replacementBlockhash?.blockhash).toBe(bed.latestBlockhash());
  expect(context.slot).toBeGreaterThan(0);
  const [after, created] = value.accounts ?? [];
  expect(amountOf(after?.data)).toBe(3_750_000n);
  expect(amountOf(created?.data)).toBe(1_250_000n);
  // Nothing committed: the payee's account still does not exist, the owner holds it all.
  expect(bed.usdcBalance(owner.publicKey)).toBe(5_000_000n);
  expect(await connection.getAccountInfo(destination)).toBeNull();
});

it('answers a failing run as a value with its error and logs, and accounts as they are', async () => {
  const owner = bed.createFundedKeypair();
  bed.mintUsdc(owner.publicKey, 1_000_000n);
  const { transaction, source } = unsignedTransfer(
    owner.publicKey,
    Keypair.generate().publicKey,
    2_000_000n,
  );
  const { value } = await connection.simulateTransaction(transaction, {
    sigVerify: false,
    replaceRecentBlockhash: true,
    accounts: { encoding: 'base64', addresses: [source.toBase58()] },
  });
  expect(value.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
  expect(value.logs?.join('\n')).toContain('insufficient funds');
  expect(amountOf(value.accounts?.[0]?.data)).toBe(1_000_000n);
});

it('refuses what a node refuses: a stale blockhash kept, sigVerify with a replaced blockhash', async () => {
  const owner = bed.createFundedKeypair();
  bed.mintUsdc(owner.publicKey, 1_000_000n);
  const { transaction } = unsignedTransfer(owner.publicKey, Keypair.generate().publicKey, 1n);
  const stale = await connection.simulateTransaction(transaction, { sigVerify: false });
  expect(stale.value.err).toBe('BlockhashNotFound');
  await expect(
    connection.simulateTransaction(transaction, { sigVerify: true, replaceRecentBlockhash: true }),
  ).rejects.toThrow('sigVerify may not be used with replaceRecentBlockhash');
  // Unsigned, with signatures verified: the run fails as a node's does.
  transaction.message.recentBlockhash = bed.latestBlockhash();
  const unsigned = await connection.simulateTransaction(transaction, { sigVerify: true });
  expect(unsigned.value.err).toBe('SignatureFailure');
});
