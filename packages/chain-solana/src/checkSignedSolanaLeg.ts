import { VersionedTransaction } from '@solana/web3.js';
import type { PreparedLeg, SignedLegCheck, SignedTransaction } from '@yieldrouter/schemas';
import bs58 from 'bs58';
import { decodeSolanaWire } from './decodeSolanaWire';
import { unsignedReason } from './verifyTransactionSignatures';

const mismatch = (reason: string): SignedLegCheck => ({ status: 'mismatch', reason });

/**
 * The Solana rule: the signed message is the prepared message byte for byte, except for the
 * recent blockhash (a wallet may refresh an expired one; it changes when the transaction may
 * land, not what it does); the fee payer is the plan owner; and every required signature
 * verifies (Ed25519, offline). Instructions, accounts, amounts and the plan memo are therefore
 * exactly the prepared ones. The transaction id is the fee payer's signature (base58).
 *
 * @example
 * const check = await checkSignedSolanaLeg({ transaction: signedBase64 }, { planId, owner, payload });
 */
export async function checkSignedSolanaLeg(
  signed: SignedTransaction,
  leg: PreparedLeg,
): Promise<SignedLegCheck> {
  const { transaction } = decodeSolanaWire(signed.transaction);
  if (leg.payload.encoding !== 'solana-v0-base64') {
    return mismatch(`the leg is ${leg.payload.encoding}, not a Solana transaction`);
  }
  const payer = transaction.message.staticAccountKeys[0]?.toBase58();
  if (payer !== leg.owner) {
    return mismatch(`the fee payer is ${payer ?? 'missing'}, not the plan owner ${leg.owner}`);
  }
  const prepared = VersionedTransaction.deserialize(
    Buffer.from(leg.payload.transaction, 'base64'),
  ).message;
  prepared.recentBlockhash = transaction.message.recentBlockhash;
  if (!Buffer.from(prepared.serialize()).equals(Buffer.from(transaction.message.serialize()))) {
    return mismatch(
      `the signed message is not the prepared message of ${leg.planId} (instructions, accounts or amounts differ)`,
    );
  }
  const problem = unsignedReason(transaction);
  if (problem) return mismatch(`not fully signed: ${problem}`);
  const signature = transaction.signatures[0];
  if (!signature) return mismatch('no fee payer signature');
  return { status: 'ok', txId: bs58.encode(signature) };
}
