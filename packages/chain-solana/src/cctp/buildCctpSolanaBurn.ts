import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
} from '@solana/spl-token';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import type { TransactionInstruction } from '@solana/web3.js';
import { InvalidChainInputError, USDC_DECIMALS } from '@yieldrouter/schemas';
import type { LegBuild } from '@yieldrouter/schemas';
import { planMemoInstruction } from '../instructions/planMemo';
import { parsePublicKey } from '../parsePublicKey';
import { prepareSolanaLeg } from '../prepareSolanaLeg';
import type { SolanaContext } from '../solanaContext';
import { associatedTokenAccount } from '../tokenAccounts';
import { validateLegRequest } from '../validateLegRequest';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';
import { depositForBurnInstruction } from './cctpSolanaInstructions';
import { USDC_MINT_MISSING_BUILD } from '../usdcMintMissing';

export interface BuildCctpSolanaBurnParameters {
  readonly planId: string;
  readonly owner: string;
  readonly amountMicros: bigint;
  readonly destinationDomain: number;
  /** The recipient on the destination chain as bytes32 (0x + 64 hex). */
  readonly mintRecipient: `0x${string}`;
  readonly maxFeeMicros: bigint;
  readonly minFinalityThreshold: number;
  readonly programs: CctpSolanaPrograms;
  /** The service's bridge fee, paid in the same transaction before the burn. */
  readonly serviceFee?: { readonly recipient: string; readonly amountMicros: bigint };
  readonly summary: string;
}

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/**
 * The burn side of CCTP v2 from Solana as one unsigned v0 transaction the owner signs (fee
 * payer): the service fee as a USDC `TransferChecked` (when there is one), TokenMessengerMinterV2
 * `deposit_for_burn` from the owner's USDC account (destination caller zero: anyone may relay),
 * and the memo `svc:<planId>`. The burn writes its MessageSent event into a fresh account that
 * must sign: the leg carries that one signature already (a throwaway key holding nothing but the
 * event's rent, which the owner pays and may reclaim), so a wallet that refreshes the blockhash
 * must prepare the leg again. No USDC mint or RPC: blocked, as every Solana leg.
 *
 * @throws InvalidChainInputError for a bad owner, planId, amount, fee or mintRecipient.
 */
export async function buildCctpSolanaBurn(
  context: SolanaContext,
  parameters: BuildCctpSolanaBurnParameters,
): Promise<LegBuild> {
  const { planId, amountMicros } = parameters;
  const owner = validateLegRequest({
    planId,
    owner: parameters.owner,
    amountMicros,
    target: { kind: 'router' },
  });
  if (!BYTES32.test(parameters.mintRecipient)) {
    throw new InvalidChainInputError('mintRecipient', 'mintRecipient: must be 0x + 64 hex');
  }
  if (parameters.maxFeeMicros < 0n || parameters.maxFeeMicros >= amountMicros) {
    throw new InvalidChainInputError('maxFeeMicros', 'maxFeeMicros: must be >= 0 and < amount');
  }
  const mint = context.usdcMint;
  if (!mint) {
    return USDC_MINT_MISSING_BUILD;
  }
  const ownerUsdc = associatedTokenAccount(owner, mint);
  const instructions: TransactionInstruction[] = [];
  const fee = parameters.serviceFee;
  if (fee && fee.amountMicros > 0n) {
    const recipient = parsePublicKey(fee.recipient);
    if (!recipient) {
      throw new InvalidChainInputError('serviceFee', 'serviceFee.recipient: not a Solana key');
    }
    const recipientUsdc = associatedTokenAccount(recipient, mint);
    instructions.push(
      createAssociatedTokenAccountIdempotentInstruction(owner, recipientUsdc, recipient, mint),
      createTransferCheckedInstruction(
        ownerUsdc,
        mint,
        recipientUsdc,
        owner,
        fee.amountMicros,
        USDC_DECIMALS,
      ),
    );
  }
  const eventAccount = Keypair.generate();
  instructions.push(
    depositForBurnInstruction({
      programs: parameters.programs,
      owner,
      burnTokenAccount: ownerUsdc,
      mint,
      messageSentEventData: eventAccount.publicKey,
      params: {
        amount: amountMicros,
        destinationDomain: parameters.destinationDomain,
        mintRecipient: Buffer.from(parameters.mintRecipient.slice(2), 'hex'),
        destinationCaller: new Uint8Array(32),
        maxFee: parameters.maxFeeMicros,
        minFinalityThreshold: parameters.minFinalityThreshold,
      },
    }),
    planMemoInstruction(planId),
  );
  const build = await prepareSolanaLeg(context, {
    owner,
    action: 'burn',
    planId,
    amountMicros,
    summary: parameters.summary,
    instructions,
  });
  if (build.status !== 'prepared') return build;
  return {
    status: 'prepared',
    legs: build.legs.map((leg) => {
      if (leg.payload.encoding !== 'solana-v0-base64') return leg;
      const transaction = VersionedTransaction.deserialize(
        Buffer.from(leg.payload.transaction, 'base64'),
      );
      transaction.sign([eventAccount]);
      return {
        ...leg,
        payload: {
          ...leg.payload,
          transaction: Buffer.from(transaction.serialize()).toString('base64'),
        },
      };
    }),
  };
}
