import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { bytesToHex, hexToBytes, keccak256 } from 'viem';
import type { Hex } from 'viem';
import type { CctpBed } from './cctpBed';
import { BYTES, bytesOf, fn, potato, SUI_CCTP_DOMAIN, T0 } from './cctpBed';
import { decodeBurnMessage, decodeMessage } from './cctpMessages';
import { recoverSigner } from './ecrecover';
import { moveStruct, objectIdOf } from './moveTypes';

/**
 * The mint: `receive_message` (attester signature, domain 8, destination caller, version, unused
 * nonce) → `prepare_mint<USDC>` (remote messenger, burn token, finality, fee bounds, expiry) →
 * `handler::mint` (net to the recipient, fee to the fee recipient, supply up) →
 * `complete_mint<USDC, Auth>` (the message is this messenger's; `MintAndWithdraw`, then
 * `MessageReceived`).
 */
export function defineCctpMint(bed: CctpBed): void {
  const {
    tmm,
    mt,
    handler,
    usdc,
    tmmState,
    mtState,
    handlerState,
    treasury,
    identifier,
    usdcTokenId,
    feeRecipient,
    remotes,
    usedNonces,
    abort,
    expectObject,
    take,
    usdcOnly,
    define,
    TMM_STATE,
    defineCompletion,
    MT_STATE_MUT,
    HANDLER_STATE,
    TREASURY,
    DENY_LIST,
    CLOCK,
    RECEIPT,
    MINT_RECEIPT,
    MINT_TICKET,
    attester,
  } = bed;
  define(
    `${mt}::receive_message::receive_message`,
    fn([BYTES, BYTES, MT_STATE_MUT], 0, true),
    (context) => {
      const name = 'receive_message';
      const [messageArg, attestationArg, stateArg] = context.args;
      expectObject(stateArg, mtState, name, name);
      const raw = bytesOf(messageArg);
      const signature = bytesOf(attestationArg);
      if (!raw || !signature) return abort(name, name, 103);
      const messageBytes = Uint8Array.from(bcs.vector(bcs.u8()).parse(raw));
      const attestation = Uint8Array.from(bcs.vector(bcs.u8()).parse(signature));
      const message = decodeMessage(messageBytes);
      if (!message || attestation.length !== 65)
        return abort('attestation', 'verify_attestation_signatures', 1);
      const signer = recoverSigner(keccak256(messageBytes), bytesToHex(attestation));
      if (!signer || signer.toLowerCase() !== attester.toLowerCase()) {
        return abort('attestation', 'verify_attestation_signatures', 2);
      }
      if (message.destinationDomain !== SUI_CCTP_DOMAIN) abort(name, name, 2);
      const caller = BigInt(message.destinationCaller);
      if (caller !== 0n && normalizeSuiAddress(message.destinationCaller) !== context.sender)
        abort(name, name, 1);
      if (message.version !== 1) abort(name, name, 3);
      const nonce = message.nonce.toLowerCase();
      if (usedNonces.has(nonce)) abort(name, name, 4);
      context.stage(() => usedNonces.add(nonce));
      return [potato(RECEIPT, { caller: context.sender, ...message, nonce })];
    },
  );
  define(
    `${tmm}::handle_receive_message::prepare_mint`,
    fn([moveStruct(mt, 'receive_message', 'Receipt'), TMM_STATE, CLOCK], 1),
    (context) => {
      const module = 'handle_receive_message';
      const name = 'prepare_mint';
      const [receiptArg, stateArg, clock] = context.args;
      usdcOnly(context, module, name);
      expectObject(stateArg, tmmState, module, name);
      if (objectIdOf(clock) !== normalizeSuiAddress('0x6')) abort(module, name, 100);
      const receipt = take(receiptArg, RECEIPT, module, name);
      if ((receipt['finalityThresholdExecuted'] as number) < 500) abort(module, name, 11);
      const remote = remotes.get(receipt['sourceDomain'] as number);
      if (!remote) return abort(module, name, 0);
      if (
        normalizeSuiAddress(remote.tokenMessenger) !==
        normalizeSuiAddress(receipt['sender'] as string)
      ) {
        abort(module, name, 1);
      }
      const burn = decodeBurnMessage(receipt['body'] as Hex);
      if (!burn || burn.version !== 1) return abort(module, name, 2);
      if (normalizeSuiAddress(burn.burnToken) !== normalizeSuiAddress(remote.usdc))
        abort(module, name, 3);
      if (burn.amount > (1n << 64n) - 1n) abort(module, name, 7);
      if (burn.feeExecuted > burn.maxFee) abort(module, name, 9);
      if (burn.feeExecuted >= burn.amount) abort(module, name, 10);
      if (burn.expirationBlock !== 0n && burn.expirationBlock <= BigInt(Date.now()))
        abort(module, name, 8);
      return [
        potato(MINT_RECEIPT, {
          receipt,
          mintRecipient: normalizeSuiAddress(burn.mintRecipient),
          amount: burn.amount - burn.feeExecuted,
          fee: burn.feeExecuted,
        }),
      ];
    },
  );
  define(
    `${handler}::handler::mint`,
    fn(
      [
        HANDLER_STATE,
        moveStruct(tmm, 'handle_receive_message', 'MintReceipt', [T0]),
        TMM_STATE,
        TREASURY,
        DENY_LIST,
      ],
      0,
      true,
    ),
    (context) => {
      const [stateArg, receiptArg, tmmStateArg, treasuryArg, denyList] = context.args;
      expectObject(stateArg, handlerState, 'handler', 'mint');
      expectObject(tmmStateArg, tmmState, 'handler', 'mint');
      expectObject(treasuryArg, treasury, 'handler', 'mint');
      if (objectIdOf(denyList) !== normalizeSuiAddress('0x403')) abort('handler', 'mint', 100);
      const fields = take(receiptArg, MINT_RECEIPT, 'handler', 'mint');
      const amount = fields['amount'] as bigint;
      const fee = fields['fee'] as bigint;
      const minted = context.newCoin(usdc, amount);
      minted.recipient = fields['mintRecipient'] as string;
      minted.spent = true;
      if (fee > 0n) {
        const kept = context.newCoin(usdc, fee);
        kept.recipient = feeRecipient;
        kept.spent = true;
      }
      context.stage(() => {
        bed.counters.supply += amount + fee;
      });
      return [potato(MINT_TICKET, fields)];
    },
  );
  defineCompletion(
    'handle_receive_message',
    'complete_mint',
    { struct: 'CompleteMintTicket', type: MINT_TICKET },
    (fields, context) => {
      const receipt = fields['receipt'] as Record<string, unknown>;
      // stamp_receipt: the message must be for this token messenger.
      if (normalizeSuiAddress(receipt['recipient'] as string) !== normalizeSuiAddress(identifier)) {
        abort('receive_message', 'stamp_receipt', 5);
      }
      context.emit({
        type: `${tmm}::handle_receive_message::MintAndWithdraw`,
        parsedJson: {
          mint_recipient: fields['mintRecipient'],
          amount: (fields['amount'] as bigint).toString(),
          mint_token: usdcTokenId,
          fee_collected: (fields['fee'] as bigint).toString(),
        },
      });
      context.emit({
        type: `${mt}::receive_message::MessageReceived`,
        parsedJson: {
          caller: receipt['caller'],
          source_domain: receipt['sourceDomain'],
          nonce: BigInt(receipt['nonce'] as string).toString(),
          sender: normalizeSuiAddress(receipt['sender'] as string),
          finality_threshold_executed: receipt['finalityThresholdExecuted'],
          message_body: [...hexToBytes(receipt['body'] as Hex)],
        },
      });
    },
  );
}
