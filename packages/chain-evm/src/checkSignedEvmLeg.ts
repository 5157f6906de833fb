import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { PreparedLeg, SignedLegCheck, SignedTransaction } from '@yieldrouter/schemas';
import { isHex, keccak256, parseTransaction, recoverTransactionAddress } from 'viem';
import type { TransactionSerialized } from 'viem';

const mismatch = (reason: string): SignedLegCheck => ({ status: 'mismatch', reason });
const same = (a: string | undefined | null, b: string) => a?.toLowerCase() === b.toLowerCase();

/**
 * The EVM rule: the raw signed transaction (0x hex) carries exactly the prepared request — the
 * same chain id, `to`, calldata and value — and its signature recovers to the plan owner. Gas
 * fields and the nonce are the owner's wallet's to choose. The transaction id is the keccak-256
 * hash of the raw bytes.
 *
 * @example
 * const check = await checkSignedEvmLeg({ transaction: '0x02f8…' }, { planId, owner, payload });
 */
export async function checkSignedEvmLeg(
  signed: SignedTransaction,
  leg: PreparedLeg,
): Promise<SignedLegCheck> {
  const raw = signed.transaction;
  if (!isHex(raw, { strict: true }) || raw.length < 4) {
    throw new InvalidChainInputError('transaction', 'transaction: not 0x-hex signed EVM bytes');
  }
  // Any typed or legacy envelope; viem rejects the ones it cannot parse.
  const serialized = raw as TransactionSerialized;
  let parsed: ReturnType<typeof parseTransaction>;
  let signer: string;
  try {
    parsed = parseTransaction(serialized);
    signer = await recoverTransactionAddress({ serializedTransaction: serialized });
  } catch {
    throw new InvalidChainInputError('transaction', 'transaction: not a signed EVM transaction');
  }
  if (leg.payload.encoding !== 'evm-transaction-request') {
    return mismatch(`the leg is ${leg.payload.encoding}, not an EVM transaction`);
  }
  const prepared = leg.payload.transaction;
  if (!same(signer, leg.owner)) {
    return mismatch(`the transaction is signed by ${signer}, not the plan owner ${leg.owner}`);
  }
  const sameRequest =
    parsed.chainId === prepared.chainId &&
    same(parsed.to, prepared.to) &&
    same(parsed.data ?? '0x', prepared.data) &&
    (parsed.value ?? 0n) === BigInt(prepared.value);
  if (!sameRequest) {
    return mismatch(
      `the signed transaction is not the prepared request of ${leg.planId} (chain, to, data or value differ)`,
    );
  }
  return { status: 'ok', txId: keccak256(raw) };
}
