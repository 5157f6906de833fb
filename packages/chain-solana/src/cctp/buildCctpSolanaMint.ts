import { PublicKey } from '@solana/web3.js';
import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { LegBuild } from '@yieldrouter/schemas';
import { parsePublicKey } from '../parsePublicKey';
import { prepareSolanaLeg } from '../prepareSolanaLeg';
import type { SolanaContext } from '../solanaContext';
import { associatedTokenAccount } from '../tokenAccounts';
import { readCctpV2Message } from './cctpSolanaMessage';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';
import { receiveMessageInstruction } from './cctpSolanaInstructions';
import { USDC_MINT_MISSING_BUILD } from '../usdcMintMissing';

export interface BuildCctpSolanaMintParameters {
  readonly planId: string;
  /** The recipient: signs, pays the nonce account's rent, and owns the token account minted to. */
  readonly owner: string;
  readonly amountMicros: bigint;
  readonly programs: CctpSolanaPrograms;
  /** TokenMessengerV2's fee recipient (its USDC token account receives the rail's fee). */
  readonly feeRecipient: string;
  readonly message: string;
  readonly attestation: string;
  readonly summary: string;
}

const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

/**
 * The mint side of CCTP v2 on Solana as one unsigned v0 transaction the recipient signs:
 * MessageTransmitterV2 `receive_message` with the attested message (the receiver's accounts
 * derived from it). The recipient's USDC account, which the burn named, must exist (a wallet
 * that ever held USDC has it); the mint reverts otherwise and can be submitted again after.
 *
 * @throws InvalidChainInputError for a bad owner or planId, a message that is not a v2 burn
 * message, or a message that mints to another account than the owner's USDC account.
 */
export async function buildCctpSolanaMint(
  context: SolanaContext,
  parameters: BuildCctpSolanaMintParameters,
): Promise<LegBuild> {
  const owner = parsePublicKey(parameters.owner);
  if (!owner) throw new InvalidChainInputError('owner', 'owner: not a base58 Solana public key');
  if (!isPlanId(parameters.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  const feeRecipient = parsePublicKey(parameters.feeRecipient);
  if (!feeRecipient) {
    throw new InvalidChainInputError('feeRecipient', 'feeRecipient: not a Solana key');
  }
  if (!HEX.test(parameters.message) || !HEX.test(parameters.attestation)) {
    throw new InvalidChainInputError('message', 'message, attestation: must be 0x-prefixed hex');
  }
  const message = Buffer.from(parameters.message.slice(2), 'hex');
  const fields = readCctpV2Message(message);
  if (!fields) throw new InvalidChainInputError('message', 'message: not a CCTP v2 burn message');
  const mint = context.usdcMint;
  if (!mint) {
    return USDC_MINT_MISSING_BUILD;
  }
  const ownerUsdc = associatedTokenAccount(owner, mint);
  if (!new PublicKey(fields.mintRecipient).equals(ownerUsdc)) {
    throw new InvalidChainInputError(
      'message',
      `message: mints to ${new PublicKey(fields.mintRecipient).toBase58()}, not the owner's USDC account ${ownerUsdc.toBase58()}`,
    );
  }
  return prepareSolanaLeg(context, {
    owner,
    action: 'mint',
    planId: parameters.planId,
    amountMicros: parameters.amountMicros,
    summary: parameters.summary,
    // receive_message alone: with Circle's two attesters' signatures it already takes 1226 of a
    // transaction's 1232 bytes, so no memo and no account creation fit beside it.
    instructions: [
      receiveMessageInstruction({
        programs: parameters.programs,
        payer: owner,
        mint,
        recipientTokenAccount: ownerUsdc,
        feeRecipientTokenAccount: associatedTokenAccount(feeRecipient, mint),
        message,
        attestation: Buffer.from(parameters.attestation.slice(2), 'hex'),
      }),
    ],
  });
}
