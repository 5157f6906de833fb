import type { SuiMoveNormalizedFunction, SuiMoveNormalizedType } from '@mysten/sui/jsonRpc';
import { normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import type { Address, Hex } from 'viem';
import { typeNameHash } from './cctpMessages';
import { coinTypeKey } from './ids';
import type { HotPotatoValue, MoveCallContext, ProgramValue } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import { moveStruct, objectIdOf, TX_CONTEXT } from './moveTypes';
import type { SuiFakeSharedRef, SuiFakeState } from './state';

// What the fake's CCTP v2 packages share: their ids and objects, the Move signatures' pieces and
// the checks every entry point makes (see cctp.ts).

/** CCTP's domain for Sui. */
export const SUI_CCTP_DOMAIN = 8;

/** A remote CCTP domain the bed's token messenger knows. */
export interface SuiCctpRemote {
  readonly domain: number;
  /** The remote token messenger as bytes32 (an EVM address left-padded). */
  readonly tokenMessenger: Hex;
  /** The remote USDC (burn token) as bytes32; it maps to the local USDC. */
  readonly usdc: Hex;
}

export interface AddCctpParameters {
  /** The USDC the handler burns and mints. */
  readonly usdcCoinType: string;
  /** The attester whose secp256k1 signature over keccak256(message) the transmitter trusts. */
  readonly attester: Address;
  readonly remotes: readonly SuiCctpRemote[];
  /** Where a mint's fee goes (`state.fee_recipient()`). */
  readonly feeRecipient: string;
}

export const ADDRESS: SuiMoveNormalizedType = 'Address';
export const BYTES: SuiMoveNormalizedType = { Vector: 'U8' };
export const T0: SuiMoveNormalizedType = { TypeParameter: 0 };

export const fn = (
  parameters: SuiMoveNormalizedType[],
  typeParameters = 0,
  context = false,
): SuiMoveNormalizedFunction => ({
  visibility: 'Public',
  isEntry: false,
  typeParameters: Array.from({ length: typeParameters }, () => ({ abilities: ['Drop'] })),
  parameters: context ? [...parameters, TX_CONTEXT] : parameters,
  return: [],
});

export const potato = (type: string, fields: Record<string, unknown>): HotPotatoValue => ({
  kind: 'potato',
  type,
  fields,
  consumed: false,
});

export const bytesOf = (value: ProgramValue | undefined) =>
  value?.kind === 'pure' ? value.bytes : undefined;

/** The packages' ids, objects, settings and checks, laid into `state`. */
export function createCctpBed(state: SuiFakeState, parameters: AddCctpParameters) {
  const tmm = normalizeSuiAddress(`0x${'c7'.repeat(32)}`);
  const mt = normalizeSuiAddress(`0x${'c8'.repeat(32)}`);
  const handler = normalizeSuiAddress(`0x${'c9'.repeat(32)}`);
  const usdc = coinTypeKey(parameters.usdcCoinType);
  const tmmState = state.addSharedObject({ type: `${tmm}::state::State` });
  const mtState = state.addSharedObject({ type: `${mt}::state::State` });
  const handlerState = state.addSharedObject({ type: `${handler}::state::State` });
  const treasury = state.addSharedObject({
    type: `0x${'ca'.repeat(32)}::treasury::Treasury<${usdc}>`,
  });
  for (const objectId of ['0x6', '0x403']) {
    if (!state.objects.has(normalizeSuiAddress(objectId))) {
      state.addSharedObject({ type: `0x2::object::UID`, objectId, initialSharedVersion: 1n });
    }
  }
  const identifier = typeNameHash(
    `${tmm}::message_transmitter_authenticator::MessageTransmitterAuthenticator`,
  );
  const usdcTokenId = typeNameHash(usdc);
  const auth = normalizeStructTag(`${handler}::handler::Auth`);
  const feeRecipient = normalizeSuiAddress(parameters.feeRecipient);
  const remotes = new Map(parameters.remotes.map((remote) => [remote.domain, remote]));
  const usedNonces = new Set<string>();
  const counters = { supply: 0n };

  const abort = (module: string, name: string, code: number): never => {
    throw new MoveAbortError(
      module === 'handler' ? handler : module === 'receive_message' ? mt : tmm,
      module,
      name,
      code,
    );
  };
  const expectObject = (
    value: ProgramValue | undefined,
    ref: SuiFakeSharedRef,
    module: string,
    name: string,
  ) => {
    if (objectIdOf(value) !== ref.objectId) abort(module, name, 100);
  };
  const take = (value: ProgramValue | undefined, type: string, module: string, name: string) => {
    if (value?.kind !== 'potato' || value.type !== type) return abort(module, name, 101);
    value.consumed = true;
    return value.fields;
  };
  const usdcOnly = (context: MoveCallContext, module: string, name: string) => {
    if (coinTypeKey(context.typeArguments[0] ?? '') !== usdc) abort(module, name, 4);
  };
  const witness = (context: MoveCallContext, module: string, name: string) => {
    if (normalizeStructTag(context.typeArguments[1] ?? '0x0::x::X') !== auth)
      abort(module, name, 102);
  };
  const define = (
    target: string,
    normalized: SuiMoveNormalizedFunction,
    run: (context: MoveCallContext) => ProgramValue[],
  ) => state.defineFakeMoveFunction(target, { normalized, run });

  const TMM_STATE = { Reference: moveStruct(tmm, 'state', 'State') };
  const MT_STATE = { Reference: moveStruct(mt, 'state', 'State') };
  const MT_STATE_MUT = { MutableReference: moveStruct(mt, 'state', 'State') };
  const HANDLER_STATE = { Reference: moveStruct(handler, 'state', 'State') };
  const TREASURY = {
    MutableReference: moveStruct(`0x${'ca'.repeat(32)}`, 'treasury', 'Treasury', [T0]),
  };
  const DENY_LIST = { Reference: moveStruct('0x2', 'deny_list', 'DenyList') };
  const CLOCK = { Reference: moveStruct('0x2', 'clock', 'Clock') };
  const BURN_RECEIPT = `${tmm}::deposit_for_burn::BurnReceipt`;
  const BURN_TICKET = `${tmm}::deposit_for_burn::CompleteBurnTicket`;
  const RECEIPT = `${mt}::receive_message::Receipt`;
  const MINT_RECEIPT = `${tmm}::handle_receive_message::MintReceipt`;
  const MINT_TICKET = `${tmm}::handle_receive_message::CompleteMintTicket`;

  /**
   * A `complete_*<USDC, Auth>(ticket, &tmm::State, &mt::State)` entry point (`complete_burn`,
   * `complete_mint`): USDC and the handler's witness as type arguments, the two states, and the
   * module's ticket consumed; `finish` gets the ticket's fields and returns nothing.
   */
  const defineCompletion = (
    module: string,
    name: string,
    ticket: { readonly struct: string; readonly type: string },
    finish: (fields: Record<string, unknown>, context: MoveCallContext) => void,
  ) =>
    define(
      `${tmm}::${module}::${name}`,
      fn(
        [moveStruct(tmm, module, ticket.struct, [T0, { TypeParameter: 1 }]), TMM_STATE, MT_STATE],
        2,
      ),
      (context) => {
        const [ticketArg, stateArg, mtStateArg] = context.args;
        usdcOnly(context, module, name);
        witness(context, module, name);
        expectObject(stateArg, tmmState, module, name);
        expectObject(mtStateArg, mtState, module, name);
        finish(take(ticketArg, ticket.type, module, name), context);
        return [];
      },
    );

  return {
    attester: parameters.attester,
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
    counters,
    abort,
    expectObject,
    take,
    usdcOnly,
    witness,
    define,
    defineCompletion,
    TMM_STATE,
    MT_STATE,
    MT_STATE_MUT,
    HANDLER_STATE,
    TREASURY,
    DENY_LIST,
    CLOCK,
    BURN_RECEIPT,
    BURN_TICKET,
    RECEIPT,
    MINT_RECEIPT,
    MINT_TICKET,
  };
}

export type CctpBed = ReturnType<typeof createCctpBed>;
