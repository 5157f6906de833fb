import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import type { TransactionObjectArgument } from '@mysten/sui/transactions';
import { isValidTransactionDigest, normalizeSuiAddress, toBase64 } from '@mysten/sui/utils';
import type { LegBuild, LegRequest } from '@yieldrouter/schemas';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import { normalizeSuiOwner } from './address';
import type { ResolvedSuiConfig } from './config';
import type { SuiLegPlan } from './legPlan';
import type { SuiLegAction } from './legPlan';
import { planSuiLeg } from './legPlan';
import { preparedLeg } from './summary';
import { appendVenueLeg } from './venues/appendVenueLeg';
import { appendWalletProof } from './wallet/walletProof';

/** An address-owned object at a known version (a coin, a gas coin). */
export interface SuiObjectRef {
  readonly objectId: string;
  readonly version: string;
  /** Base58 32-byte object digest. */
  readonly digest: string;
}

/** A shared object (a venue's market, pool or storage; the Clock). */
export interface SuiSharedRef {
  readonly objectId: string;
  readonly initialSharedVersion: string;
}

/** Every ref a fully built leg needs; the caller read them from the chain. */
export interface SuiResolvedRefs {
  /** SUI coins owned by the owner that pay for gas. */
  readonly gas: readonly SuiObjectRef[];
  /** Mist per gas unit; at least the reference gas price. */
  readonly gasPrice: bigint;
  /** Mist. */
  readonly gasBudget: bigint;
  /** The owner's USDC coins, together holding at least the amount (deposits, wallet legs). */
  readonly usdcCoins?: readonly SuiObjectRef[];
  /** Venue legs: the shared ref of every object the venue's calls take (Clock included). */
  readonly shared?: readonly SuiSharedRef[];
  /** Suilend and Scallop withdrawals: the owner's receipt coins, holding enough to burn. */
  readonly receiptCoins?: readonly SuiObjectRef[];
}

const U64 = /^\d{1,20}$/;

function checkRef(field: string, ref: SuiObjectRef): SuiObjectRef {
  if (normalizeSuiOwner(ref.objectId) === undefined || !U64.test(ref.version)) {
    throw new InvalidChainInputError(field, `${field}: objectId must be 0x + hex, version a u64`);
  }
  if (!isValidTransactionDigest(ref.digest)) {
    throw new InvalidChainInputError(field, `${field}: digest must be base58 of 32 bytes`);
  }
  return ref;
}

function checkRefs(plan: SuiLegPlan, refs: SuiResolvedRefs) {
  if (refs.gas.length === 0) throw new InvalidChainInputError('refs.gas', 'refs.gas: empty');
  refs.gas.forEach((ref, index) => checkRef(`refs.gas[${index}]`, ref));
  if (refs.gasPrice <= 0n || refs.gasBudget <= 0n) {
    throw new InvalidChainInputError('refs.gasBudget', 'refs: gasPrice and gasBudget must be > 0');
  }
  const coins = refs.usdcCoins ?? [];
  // A deposit pays USDC in; a wallet leg (no venue) splits its amount off the owner's USDC.
  if ((plan.action === 'deposit' || !plan.venue) && coins.length === 0) {
    throw new InvalidChainInputError('refs.usdcCoins', 'refs.usdcCoins: this leg needs USDC');
  }
  coins.forEach((ref, index) => checkRef(`refs.usdcCoins[${index}]`, ref));
  const receiptCoins = refs.receiptCoins ?? [];
  receiptCoins.forEach((ref, index) => checkRef(`refs.receiptCoins[${index}]`, ref));
  return { coins, receiptCoins };
}

/** A venue object's shared ref from `refs.shared`; a missing one is bad input naming it. */
function sharedInput(tx: Transaction, refs: SuiResolvedRefs) {
  return (objectId: string, mutable: boolean) => {
    const id = normalizeSuiAddress(objectId);
    const ref = (refs.shared ?? []).find((item) => normalizeSuiAddress(item.objectId) === id);
    if (!ref || !U64.test(ref.initialSharedVersion)) {
      throw new InvalidChainInputError('refs.shared', `refs.shared: needs the shared ref of ${id}`);
    }
    return tx.sharedObjectRef({
      objectId: id,
      initialSharedVersion: ref.initialSharedVersion,
      mutable,
    });
  };
}

/** All of the given coins merged into the first, then `amount` split off. */
function splitFrom(tx: Transaction, refs: readonly SuiObjectRef[], amount: bigint, field: string) {
  const [first, ...rest] = refs.map((ref) => tx.objectRef(ref));
  if (!first) throw new InvalidChainInputError(field, `${field}: none given`);
  if (rest.length > 0) tx.mergeCoins(first, rest);
  const [coin] = tx.splitCoins(first, [tx.pure.u64(amount)]);
  if (!coin) throw new Error('unreachable: splitCoins returns one coin per amount');
  return coin as TransactionObjectArgument;
}

/**
 * A fully built leg (`sui-transaction-bcs-base64`): every object ref, the gas payment, price and
 * budget are given, so the bytes are final and the owner signs them as they are. Offline.
 */
export async function buildSuiLegBytes(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  request: LegRequest,
  action: SuiLegAction,
  refs: SuiResolvedRefs,
): Promise<LegBuild> {
  const outcome = planSuiLeg(config, request, action);
  if (outcome.status === 'blocked') return outcome;
  const { plan } = outcome;
  const checked = checkRefs(plan, refs);

  const tx = new Transaction();
  tx.setSender(plan.owner);
  tx.setGasOwner(normalizeSuiAddress(plan.owner));
  tx.setGasPayment(refs.gas.map((ref) => ({ ...ref })));
  tx.setGasPrice(refs.gasPrice);
  tx.setGasBudget(refs.gasBudget);
  if (plan.venue) {
    const appended = await appendVenueLeg(client, tx, { ...plan, venue: plan.venue }, action, {
      object: sharedInput(tx, refs),
      usdcCoin: (amount) => splitFrom(tx, checked.coins, amount, 'refs.usdcCoins'),
      receiptCoin: (_venue, receipts) =>
        splitFrom(tx, checked.receiptCoins, receipts, 'refs.receiptCoins'),
    });
    if (appended.status === 'blocked') return appended;
  } else {
    appendWalletProof(tx, plan, splitFrom(tx, checked.coins, plan.amount, 'refs.usdcCoins'));
  }
  const bytes = await tx.build();
  return preparedLeg(plan, {
    encoding: 'sui-transaction-bcs-base64',
    transaction: toBase64(bytes),
  });
}
