// Test support: a chain whose "transactions" are executed by the test, with receipts and
// position reads shaped like the real adapters' (the adapter contract). Venues are share vaults
// priced like TestVault4626 (a virtual share and asset of 1, conversions rounding down), so a
// test can move the share price, deposit outside our plans, fill short or long, fail, or land a
// transaction late. Product code never imports it.
import { randomBytes } from 'node:crypto';
import type {
  ChainAdapter,
  LegBuild,
  LegRequest,
  LegTarget,
  PositionReading,
  Receipt,
  TransferLegRequest,
} from '@yieldrouter/schemas';
import type { ChainAdapters } from '../../chains/chainsConfig';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A Solana-looking address or signature (base58 of random bytes). */
export function fakeBase58(length = 44): string {
  return Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/** A leg as prepared: who signs, where it goes. */
interface PreparedLeg {
  readonly planId: string;
  readonly owner: string;
  readonly action: 'deposit' | 'withdraw';
  readonly target: LegTarget;
  readonly amountMicros: bigint;
}

interface Transaction {
  readonly leg: PreparedLeg;
  readonly amountMicros: bigint;
  readonly ok: boolean;
  landed: boolean;
  shares: bigint | null;
}

interface Vault {
  totalShares: bigint;
  totalAssets: bigint;
  readonly holders: Map<string, bigint>;
}

export interface ExecuteOptions {
  /** What the chain moves (a short or long fill); the quote by default. */
  readonly amountMicros?: bigint;
  /** False: the transaction reverts. */
  readonly ok?: boolean;
  /** False: the chain does not show it yet (`land` it later). */
  readonly landed?: boolean;
}

export interface FakeChain {
  readonly adapters: ChainAdapters;
  /** The owner signs and the chain runs a prepared leg (its amount unless told). */
  execute(leg: { planId: string; amountMicros: bigint }, options?: ExecuteOptions): string;
  /** A transaction executed with `landed: false` reaches the chain now. */
  land(txId: string): void;
  /** Yield (or, negative, a loss) for every holder of the venue: its share price moves. */
  accrue(venueId: string, assetsMicros: bigint): void;
  /** Someone deposits into the venue for `owner` outside our plans. */
  depositOutside(owner: string, venueId: string, assetsMicros: bigint): void;
  /** The owner withdraws from the venue outside our plans (its shares burn). */
  withdrawOutside(owner: string, venueId: string, assetsMicros: bigint): void;
  /** The owner's shares of a venue on chain. */
  sharesOf(owner: string, venueId: string): bigint;
  /** What `shares` of the venue are worth now. */
  valueOf(venueId: string, shares: bigint): bigint;
  /** Position reads of the venue fail (unset: they answer again). */
  setUnreadable(venueId: string, unreadable: boolean): void;
  /** The owner signs and the chain runs a prepared transfer leg to `recipient`. */
  transfer(
    planId: string,
    recipient: string,
    options?: { readonly amountMicros?: bigint; readonly ok?: boolean },
  ): string;
}

/** Solana served by an in-memory chain; the other chains refuse every address. */
export function fakeChain(): FakeChain {
  const prepared = new Map<string, PreparedLeg>();
  const transactions = new Map<string, Transaction>();
  const vaults = new Map<string, Vault>();
  const unreadable = new Set<string>();
  // Transfer legs, keyed by plan and recipient (an auto-pay plan has several); their landings.
  const preparedTransfers = new Map<string, TransferLegRequest>();
  const transfers = new Map<
    string,
    { request: TransferLegRequest; amountMicros: bigint; ok: boolean }
  >();

  const vault = (venueId: string): Vault => {
    let found = vaults.get(venueId);
    if (!found) {
      found = { totalShares: 0n, totalAssets: 0n, holders: new Map() };
      vaults.set(venueId, found);
    }
    return found;
  };
  const toShares = (v: Vault, assets: bigint) =>
    (assets * (v.totalShares + 1n)) / (v.totalAssets + 1n);
  const toAssets = (v: Vault, shares: bigint) =>
    (shares * (v.totalAssets + 1n)) / (v.totalShares + 1n);
  const mint = (v: Vault, owner: string, assets: bigint) => {
    const shares = toShares(v, assets);
    v.totalShares += shares;
    v.totalAssets += assets;
    v.holders.set(owner, (v.holders.get(owner) ?? 0n) + shares);
    return shares;
  };
  const burn = (v: Vault, owner: string, assets: bigint) => {
    // withdraw(assets): the shares it burns round up, in the vault's favour.
    const shares = (assets * (v.totalShares + 1n) + v.totalAssets) / (v.totalAssets + 1n);
    const held = v.holders.get(owner) ?? 0n;
    if (shares > held) return undefined;
    v.totalShares -= shares;
    v.totalAssets -= assets;
    v.holders.set(owner, held - shares);
    return shares;
  };

  /** Runs a landed transaction against the venue: false when the vault refuses it. */
  const apply = (tx: Transaction): boolean => {
    const { leg } = tx;
    if (!tx.ok || leg.target.kind !== 'venue') return tx.ok;
    const v = vault(leg.target.venue.venueId);
    const shares =
      leg.action === 'deposit'
        ? mint(v, leg.owner, tx.amountMicros)
        : burn(v, leg.owner, tx.amountMicros);
    if (shares === undefined) return false;
    tx.shares = shares;
    return true;
  };

  /** A one-leg build whose "transaction" names what it does. */
  const oneLeg = (
    action: 'deposit' | 'withdraw' | 'transfer',
    request: { readonly planId: string; readonly amountMicros: bigint },
    summary: string,
    what: string,
  ): LegBuild => ({
    status: 'prepared',
    legs: [
      {
        chain: 'solana',
        action,
        summary,
        planId: request.planId,
        amountMicros: request.amountMicros,
        settles: true,
        payload: {
          encoding: 'solana-v0-base64',
          transaction: Buffer.from(what).toString('base64'),
          lastValidBlockHeight: '1',
        },
      },
    ],
  });

  const build =
    (action: 'deposit' | 'withdraw') =>
    async (request: LegRequest): Promise<LegBuild> => {
      prepared.set(request.planId, { ...request, action });
      const { planId, amountMicros } = request;
      return oneLeg(
        action,
        request,
        `${action} ${amountMicros} micros (${planId})`,
        `${action}:${planId}:${amountMicros}`,
      );
    };

  const solana: ChainAdapter = {
    chain: 'solana',
    normalizeAddress: (address) => (BASE58.test(address) ? address : undefined),
    readBalances: async () => [],
    buildDeposit: build('deposit'),
    buildWithdraw: build('withdraw'),
    // As the real adapters: the owner and the plan tag are checked before anything is believed.
    readReceipt: async ({ txId, planId, owner }): Promise<Receipt> => {
      const tx = transactions.get(txId);
      if (!tx || !tx.landed) return { status: 'pending', txId };
      if (tx.leg.owner !== owner) {
        return { status: 'mismatch', txId, reason: `fee payer ${tx.leg.owner} is not the owner` };
      }
      if (tx.leg.planId !== planId) {
        return { status: 'mismatch', txId, reason: `no memo svc:${planId}` };
      }
      if (!tx.ok) {
        return { status: 'failed', txId, reason: 'InstructionError: custom program error 0x1' };
      }
      return {
        status: 'confirmed',
        txId,
        planId: tx.leg.planId,
        amountMicros: tx.amountMicros,
        shares: tx.shares,
        block: '1',
      };
    },
    buildTransfer: async (request): Promise<LegBuild> => {
      const { planId, recipient, amountMicros } = request;
      preparedTransfers.set(`${planId}:${recipient}`, request);
      return oneLeg(
        'transfer',
        request,
        `send ${amountMicros} micros to ${recipient}`,
        `transfer:${planId}:${recipient}:${amountMicros}`,
      );
    },
    readTransferReceipt: async ({ txId, planId, owner, recipient }): Promise<Receipt> => {
      const tx = transfers.get(txId);
      if (!tx) return { status: 'pending', txId };
      const { request } = tx;
      if (request.owner !== owner || request.planId !== planId || request.recipient !== recipient) {
        return { status: 'mismatch', txId, reason: 'another owner, plan or recipient' };
      }
      if (!tx.ok) {
        return { status: 'failed', txId, reason: 'InstructionError: insufficient funds' };
      }
      return {
        status: 'confirmed',
        txId,
        planId,
        amountMicros: tx.amountMicros,
        shares: null,
        block: '1',
      };
    },
    checkSignedLeg: async () => ({ status: 'mismatch', reason: 'the fake chain takes no bytes' }),
    broadcast: async () => ({ status: 'rejected', reason: 'the fake chain takes no broadcasts' }),
    readPosition: async (venue, owner, shares): Promise<PositionReading> => {
      if (unreadable.has(venue.venueId)) {
        return { status: 'unavailable', reason: 'rpc_error', detail: 'fake: unreadable' };
      }
      const v = vault(venue.venueId);
      const ownerShares = v.holders.get(owner) ?? 0n;
      return {
        status: 'ok',
        ownerShares,
        sharesValueMicros: toAssets(v, shares),
        ownerValueMicros: toAssets(v, ownerShares),
        block: '1',
        asOf: new Date(),
      };
    },
  };
  const refuse = (chain: 'sui' | 'base' | 'arbitrum'): ChainAdapter => ({
    ...solana,
    chain,
    normalizeAddress: () => undefined,
  });
  const land = (txId: string) => {
    const tx = transactions.get(txId);
    if (!tx || tx.landed) return;
    tx.landed = true;
    if (!apply(tx)) transactions.set(txId, { ...tx, ok: false });
  };
  return {
    adapters: { solana, sui: refuse('sui'), base: refuse('base'), arbitrum: refuse('arbitrum') },
    execute(leg, options = {}) {
      const found = prepared.get(leg.planId);
      if (!found) throw new Error(`fake chain: plan ${leg.planId} was not prepared here`);
      const txId = fakeBase58(88);
      transactions.set(txId, {
        leg: found,
        amountMicros: options.amountMicros ?? leg.amountMicros,
        ok: options.ok ?? true,
        landed: false,
        shares: null,
      });
      if (options.landed !== false) land(txId);
      return txId;
    },
    land,
    accrue(venueId, assetsMicros) {
      vault(venueId).totalAssets += assetsMicros;
    },
    depositOutside(owner, venueId, assetsMicros) {
      mint(vault(venueId), owner, assetsMicros);
    },
    withdrawOutside(owner, venueId, assetsMicros) {
      if (burn(vault(venueId), owner, assetsMicros) === undefined) {
        throw new Error(`fake chain: ${owner} holds less than ${assetsMicros} in ${venueId}`);
      }
    },
    sharesOf: (owner, venueId) => vault(venueId).holders.get(owner) ?? 0n,
    valueOf: (venueId, shares) => toAssets(vault(venueId), shares),
    setUnreadable(venueId, value) {
      if (value) unreadable.add(venueId);
      else unreadable.delete(venueId);
    },
    transfer(planId, recipient, options = {}) {
      const request = preparedTransfers.get(`${planId}:${recipient}`);
      if (!request) throw new Error(`fake chain: no transfer to ${recipient} in ${planId}`);
      const txId = fakeBase58(88);
      transfers.set(txId, {
        request,
        amountMicros: options.amountMicros ?? request.amountMicros,
        ok: options.ok ?? true,
      });
      return txId;
    },
  };
}
