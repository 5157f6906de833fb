import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { bytesToHex, hexToBytes } from 'viem';
import type { Hex } from 'viem';
import type { CctpBed } from './cctpBed';
import { ADDRESS, BYTES, bytesOf, fn, potato, SUI_CCTP_DOMAIN, T0 } from './cctpBed';
import { bytes32OfAddress, encodeBurnMessage, encodeMessage } from './cctpMessages';
import { moveCoin, moveStruct, objectIdOf } from './moveTypes';

/**
 * The burn: `deposit_for_burn<USDC>` (checks, a `BurnReceipt`, the coin back) →
 * `stablecoin_handler::handler::burn` (burns the coin, supply down) → `complete_burn<USDC, Auth>`
 * (sends the v2 message: `MessageSent`, then `DepositForBurn`).
 */
export function defineCctpBurn(bed: CctpBed): void {
  const {
    tmm,
    mt,
    handler,
    usdc,
    tmmState,
    handlerState,
    treasury,
    identifier,
    usdcTokenId,
    remotes,
    abort,
    expectObject,
    take,
    usdcOnly,
    define,
    TMM_STATE,
    defineCompletion,
    HANDLER_STATE,
    TREASURY,
    DENY_LIST,
    BURN_RECEIPT,
    BURN_TICKET,
  } = bed;
  define(
    `${tmm}::deposit_for_burn::deposit_for_burn`,
    fn([moveCoin(T0), 'U32', ADDRESS, ADDRESS, 'U256', 'U32', BYTES, TMM_STATE], 1, true),
    (context) => {
      const name = 'deposit_for_burn';
      const [coin, domainArg, recipientArg, callerArg, maxFeeArg, finalityArg, hookArg, stateArg] =
        context.args;
      usdcOnly(context, name, name);
      expectObject(stateArg, tmmState, name, name);
      const [domain, recipient, caller, maxFee, finality, hook] = [
        domainArg,
        recipientArg,
        callerArg,
        maxFeeArg,
        finalityArg,
        hookArg,
      ].map(bytesOf);
      if (
        coin?.kind !== 'coin' ||
        !domain ||
        !recipient ||
        !caller ||
        !maxFee ||
        !finality ||
        !hook
      ) {
        return abort(name, name, 103);
      }
      const amount = coin.balance;
      const mintRecipient = normalizeSuiAddress(bcs.Address.parse(recipient));
      const fee = BigInt(bcs.u256().parse(maxFee));
      const destinationDomain = bcs.u32().parse(domain);
      if (amount <= 0n) abort(name, name, 0);
      if (BigInt(mintRecipient) === 0n) abort(name, name, 1);
      if (fee >= amount) abort(name, name, 7);
      const remote = remotes.get(destinationDomain);
      if (!remote) return abort(name, name, 2);
      const receipt = potato(BURN_RECEIPT, {
        caller: context.sender,
        amount,
        destinationDomain,
        mintRecipient,
        destinationCaller: normalizeSuiAddress(bcs.Address.parse(caller)),
        destinationTokenMessenger: remote.tokenMessenger,
        maxFee: fee,
        minFinalityThreshold: bcs.u32().parse(finality),
        hookData: bytesToHex(Uint8Array.from(bcs.vector(bcs.u8()).parse(hook))),
      });
      return [receipt, coin];
    },
  );
  define(
    `${handler}::handler::burn`,
    fn(
      [
        HANDLER_STATE,
        moveStruct(tmm, 'deposit_for_burn', 'BurnReceipt', [T0]),
        moveCoin(T0),
        DENY_LIST,
        TREASURY,
      ],
      0,
      true,
    ),
    (context) => {
      const [stateArg, receiptArg, coin, denyList, treasuryArg] = context.args;
      expectObject(stateArg, handlerState, 'handler', 'burn');
      expectObject(treasuryArg, treasury, 'handler', 'burn');
      if (objectIdOf(denyList) !== normalizeSuiAddress('0x403')) abort('handler', 'burn', 100);
      const fields = take(receiptArg, BURN_RECEIPT, 'handler', 'burn');
      if (coin?.kind !== 'coin' || coin.coinType !== usdc || coin.balance !== fields['amount']) {
        return abort('handler', 'burn', 1);
      }
      const burned = coin.balance;
      coin.balance = 0n;
      coin.spent = true;
      context.stage(() => {
        bed.counters.supply -= burned;
      });
      return [potato(BURN_TICKET, fields)];
    },
  );
  defineCompletion(
    'deposit_for_burn',
    'complete_burn',
    { struct: 'CompleteBurnTicket', type: BURN_TICKET },
    (burn, context) => {
      const amount = burn['amount'] as bigint;
      const body = encodeBurnMessage({
        version: 1,
        burnToken: usdcTokenId,
        mintRecipient: burn['mintRecipient'] as Hex,
        amount,
        messageSender: bytes32OfAddress(burn['caller'] as string),
        maxFee: burn['maxFee'] as bigint,
        feeExecuted: 0n,
        expirationBlock: 0n,
        hookData: burn['hookData'] as Hex,
      });
      const message = encodeMessage({
        version: 1,
        sourceDomain: SUI_CCTP_DOMAIN,
        destinationDomain: burn['destinationDomain'] as number,
        nonce: `0x${'00'.repeat(32)}`,
        sender: identifier,
        recipient: burn['destinationTokenMessenger'] as Hex,
        destinationCaller: burn['destinationCaller'] as Hex,
        minFinalityThreshold: burn['minFinalityThreshold'] as number,
        finalityThresholdExecuted: 0,
        body,
      });
      context.emit({
        type: `${mt}::send_message::MessageSent`,
        parsedJson: { message: [...hexToBytes(message)] },
      });
      context.emit({
        type: `${tmm}::deposit_for_burn::DepositForBurn`,
        parsedJson: {
          burn_token: usdcTokenId,
          amount: amount.toString(),
          depositor: burn['caller'],
          mint_recipient: burn['mintRecipient'],
          destination_domain: burn['destinationDomain'],
          destination_token_messenger: normalizeSuiAddress(
            burn['destinationTokenMessenger'] as string,
          ),
          destination_caller: burn['destinationCaller'],
          max_fee: (burn['maxFee'] as bigint).toString(),
          min_finality_threshold: burn['minFinalityThreshold'],
          hook_data: [...hexToBytes(burn['hookData'] as Hex)],
        },
      });
    },
  );
}
