import type { TokenBalance } from '@solana/web3.js';
import type { ReceiptWith } from '@yieldrouter/schemas';
import { describeRpcFailure, SolanaBadResponseError } from '../describeRpcFailure';
import { readPlannedSolanaTransaction } from '../readPlannedSolanaTransaction';
import type { SolanaContext } from '../solanaContext';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';
import { decodeDepositForBurnData } from './cctpSolanaInstructions';

/** A CCTP burn on Solana as its receipt proves it; `mintRecipient` as bytes32 hex. */
export type CctpSolanaBurnReading = ReceiptWith<{
  readonly amountMicros: bigint;
  readonly destinationDomain: number;
  readonly mintRecipient: `0x${string}`;
}>;

export interface ReadCctpSolanaBurnParameters {
  readonly txId: string;
  readonly planId: string;
  readonly owner: string;
  readonly programs: CctpSolanaPrograms;
}

/** post − pre of every token account of `mint` in the transaction: minus what was burned. */
function mintSupplyChange(
  meta: { preTokenBalances?: TokenBalance[] | null; postTokenBalances?: TokenBalance[] | null },
  mint: string,
): bigint {
  const sum = (balances: readonly TokenBalance[] | null | undefined) =>
    (balances ?? [])
      .filter((balance) => balance.mint === mint)
      .reduce((total, balance) => {
        const { amount } = balance.uiTokenAmount;
        if (!/^\d+$/.test(amount)) {
          throw new SolanaBadResponseError(`token amount ${amount} is not an integer`);
        }
        return total + BigInt(amount);
      }, 0n);
  return sum(meta.postTokenBalances) - sum(meta.preTokenBalances);
}

/**
 * What the chain says about a CCTP v2 burn leg from Solana: the leg's own transaction (fee payer
 * the owner, memo `svc:<planId>`, see `readPlannedSolanaTransaction`) with exactly one
 * TokenMessengerMinterV2 `deposit_for_burn` by the owner of the configured USDC mint. The
 * destination domain and mint recipient are that instruction's, which the program executed as
 * the transaction succeeded; the amount is what left the USDC supply in it (the token balances),
 * which must equal the instruction's amount.
 *
 * @throws InvalidChainInputError for a malformed txId, owner or planId.
 * @example
 * const burn = await readCctpSolanaBurn(context, { txId, planId, owner, programs })
 */
export async function readCctpSolanaBurn(
  context: SolanaContext,
  query: ReadCctpSolanaBurnParameters,
): Promise<CctpSolanaBurnReading> {
  const read = await readPlannedSolanaTransaction(context, query);
  if (read.status !== 'ran') return read;
  const { keys, meta, mint, owner } = read;
  const txId = query.txId;
  try {
    const burns = read.instructions
      .filter((instruction) =>
        keys.get(instruction.programIdIndex)?.equals(query.programs.tokenMessengerMinter),
      )
      .flatMap((instruction) => {
        const params = decodeDepositForBurnData(instruction.data);
        return params ? [{ instruction, params }] : [];
      });
    const [burn, ...others] = burns;
    if (!burn || others.length > 0) {
      return {
        status: 'mismatch',
        txId,
        reason: `${burns.length} deposit_for_burn instructions of TokenMessengerMinterV2 (one expected)`,
      };
    }
    const burner = keys.get(burn.instruction.accountKeyIndexes[0] ?? -1);
    const burnMint = keys.get(burn.instruction.accountKeyIndexes[10] ?? -1);
    if (!burner?.equals(owner) || !burnMint?.equals(mint)) {
      return { status: 'mismatch', txId, reason: "not a burn of the owner's USDC" };
    }
    const burned = -mintSupplyChange(meta, mint.toBase58());
    if (burned !== burn.params.amount) {
      return {
        status: 'mismatch',
        txId,
        reason: `the USDC balances fell by ${burned}, the burn names ${burn.params.amount}`,
      };
    }
    return {
      status: 'confirmed',
      txId,
      amountMicros: burned,
      destinationDomain: burn.params.destinationDomain,
      mintRecipient: `0x${Buffer.from(burn.params.mintRecipient).toString('hex')}`,
    };
  } catch (error) {
    return describeRpcFailure(error, 'burn receipt');
  }
}
