import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { coinTypeKey, displayCoinType, moveFunctionKey, randomDigest, randomObjectId } from './ids';
import type { FakeMoveFunction } from './moveCalls';

/** A reference to an address-owned object: what `tx.objectRef(...)` takes. */
export interface SuiFakeObjectRef {
  readonly objectId: string;
  readonly version: string;
  readonly digest: string;
}

/** A shared object as `tx.sharedObjectRef(...)` needs it. */
export interface SuiFakeSharedRef {
  readonly objectId: string;
  readonly initialSharedVersion: string;
}

/** Object ownership in the JSON-RPC form (`ObjectOwner`). */
export type SuiFakeOwner =
  | { readonly AddressOwner: string }
  | { readonly Shared: { readonly initial_shared_version: string } }
  /** A dynamic field's object: owned by its parent (a table). */
  | { readonly ObjectOwner: string }
  | 'Immutable';

/** One object the fake knows. Coins carry their type and balance. */
export interface SuiFakeObject {
  readonly objectId: string;
  version: bigint;
  digest: string;
  readonly type: string;
  owner: SuiFakeOwner;
  readonly fields: Readonly<Record<string, unknown>>;
  previousTransaction: string;
  readonly coin?: { readonly coinType: string; readonly balance: bigint };
}

/** A Move event as a test lays it down (the router package would emit it on chain). */
export interface SuiFakeEvent {
  /** Full event type, e.g. `0x…::router::Deposited`. */
  readonly type: string;
  /** The event's fields as Sui prints them (u64 as decimal strings, vector<u8> as numbers). */
  readonly parsedJson: unknown;
  /** Defaults to the transaction sender. */
  readonly sender?: string;
  /** BCS of the event (base64). Defaults to empty: the fake does not know the struct layout. */
  readonly bcs?: string;
}

/** A balance change as a test lays it down; `amount` is signed (negative = spent). */
export interface SuiFakeBalanceChange {
  readonly owner: string;
  readonly coinType: string;
  readonly amount: bigint;
}

/** The effects of one transaction, recorded by a test or by `sui_executeTransactionBlock`. */
export interface RecordTransactionInput {
  /**
   * Base58 32-byte digest; when omitted, the digest of `transaction`, else a random one.
   */
  readonly digest?: string;
  /** The sender; defaults to the sender of `transaction`, and must be it when both are given. */
  readonly sender?: string;
  /**
   * BCS `TransactionData` (e.g. `await tx.build()`, or a leg's bytes), shown by `showInput` and
   * `showRawInput` as a node shows what it executed. Without it the input is an empty PTB.
   */
  readonly transaction?: Uint8Array;
  readonly status?: 'success' | 'failure';
  /** The failure message (Move abort etc.) when status is `failure`. */
  readonly error?: string;
  readonly events?: readonly SuiFakeEvent[];
  readonly balanceChanges?: readonly SuiFakeBalanceChange[];
  /** The checkpoint; the next one when omitted; null for "executed, not yet checkpointed". */
  readonly checkpoint?: bigint | null;
  readonly changedObjects?: readonly SuiFakeObjectChange[];
}

/** A transaction the fake knows. `bytes` and `signatures` are set when it was executed. */
export interface SuiFakeTransaction {
  readonly digest: string;
  readonly sender: string;
  readonly status: 'success' | 'failure';
  readonly error: string | undefined;
  readonly events: readonly SuiFakeEvent[];
  readonly balanceChanges: readonly SuiFakeBalanceChange[];
  readonly checkpoint: bigint | null;
  readonly timestampMs: string;
  readonly bytes: Uint8Array | undefined;
  readonly signatures: readonly string[];
  /** Objects a venue function wrote (effects `created` / `mutated`, `modifiedAtVersions`). */
  readonly changedObjects: readonly SuiFakeObjectChange[];
}

/** One object a transaction wrote: its new version, and the one it replaced (none: created). */
export interface SuiFakeObjectChange {
  readonly objectId: string;
  readonly owner: SuiFakeOwner;
  readonly version: bigint;
  readonly digest: string;
  readonly previousVersion: bigint | undefined;
}

function ownerAddress(owner: SuiFakeOwner): string | undefined {
  return typeof owner === 'object' && 'AddressOwner' in owner ? owner.AddressOwner : undefined;
}

/** The in-memory ledger behind the Sui JSON-RPC fake: coins, shared objects, transactions. */
export class SuiFakeState {
  readonly genesisDigest = randomDigest();
  latestCheckpoint = 0n;
  readonly objects = new Map<string, SuiFakeObject>();
  readonly transactions = new Map<string, SuiFakeTransaction>();
  /** Parameter types of Move functions, by `moveFunctionKey`: they type pure inputs. */
  readonly moveFunctions = new Map<string, readonly string[]>();
  /** Move functions the fake runs (see `runProgrammable`), by `moveFunctionKey`. */
  readonly fakeFunctions = new Map<string, FakeMoveFunction>();
  /** Earlier versions of objects `writeObject` replaced (`sui_tryGetPastObject`). */
  readonly pastObjects = new Map<string, Map<bigint, SuiFakeObject>>();
  /** What `writeObject` wrote since the last `takeObjectChanges` (one transaction's writes). */
  private objectChanges: SuiFakeObjectChange[] = [];

  /**
   * Declares a Move function's parameters (without the trailing `&mut TxContext`), e.g.
   * `('0x…::router::deposit', ['&mut YieldRouter', 'Coin<T>', 'vector<u8>'])`, so `showInput`
   * prints the pure inputs passed to it decoded, as a node that knows the package does.
   */
  defineMoveFunction(target: string, parameters: readonly string[]): void {
    const [packageId, module, name] = target.split('::');
    if (!packageId || !module || !name) {
      throw new RangeError('target: must be <package>::<module>::<function>');
    }
    this.moveFunctions.set(moveFunctionKey(packageId, module, name), [...parameters]);
  }

  /**
   * Makes the fake run a Move function: a transaction whose every Move call has one is executed
   * (coins and balance changes for real); `sui_getNormalizedMoveFunction` answers its signature.
   */
  defineFakeMoveFunction(target: string, fn: FakeMoveFunction): void {
    const [packageId, module, name] = target.split('::');
    if (!packageId || !module || !name) {
      throw new RangeError('target: must be <package>::<module>::<function>');
    }
    this.fakeFunctions.set(moveFunctionKey(packageId, module, name), fn);
  }

  /** A coin object after a transaction: its new balance, and its new owner when transferred. */
  setCoin(object: SuiFakeObject, balance: bigint, recipient: string | undefined): void {
    if (!object.coin) throw new RangeError('setCoin: not a coin');
    this.objects.set(object.objectId, {
      ...object,
      owner: recipient ? { AddressOwner: normalizeSuiAddress(recipient) } : object.owner,
      fields: { ...object.fields, balance: balance.toString() },
      coin: { coinType: object.coin.coinType, balance },
    });
  }

  /** A coin a transaction created for `owner`, at the transaction's version. */
  createCoin(owner: string, coinType: string, balance: bigint, version: bigint, digest: string) {
    const object: SuiFakeObject = {
      objectId: randomObjectId(),
      version,
      digest: randomDigest(),
      type: `0x2::coin::Coin<${displayCoinType(coinType)}>`,
      owner: { AddressOwner: normalizeSuiAddress(owner) },
      fields: { balance: balance.toString() },
      previousTransaction: digest,
      coin: { coinType: coinTypeKey(coinType), balance },
    };
    this.objects.set(object.objectId, object);
    // A node lists every object a transaction created in its effects (`created`, with the owner).
    this.objectChanges.push({
      objectId: object.objectId,
      owner: object.owner,
      version,
      digest: object.digest,
      previousVersion: undefined,
    });
  }

  /** Adds one `Coin<coinType>` owned by `owner` and returns its ref. */
  addCoin(owner: string, coinType: string, amount: bigint): SuiFakeObjectRef {
    if (amount < 0n) throw new RangeError('amount: must be >= 0');
    const display = displayCoinType(coinType);
    const object: SuiFakeObject = {
      objectId: randomObjectId(),
      version: 1n,
      digest: randomDigest(),
      type: `0x2::coin::Coin<${display}>`,
      owner: { AddressOwner: normalizeSuiAddress(owner) },
      fields: { balance: amount.toString() },
      previousTransaction: randomDigest(),
      coin: { coinType: coinTypeKey(coinType), balance: amount },
    };
    this.objects.set(object.objectId, object);
    return refOf(object);
  }

  /**
   * Replaces every `Coin<coinType>` of `owner` with one coin of `amount` (none for 0).
   * Returns the new coin's ref, or undefined for a zero balance.
   */
  setBalance(owner: string, coinType: string, amount: bigint): SuiFakeObjectRef | undefined {
    for (const coin of this.coinsOf(owner, coinType)) this.objects.delete(coin.objectId);
    return amount === 0n ? undefined : this.addCoin(owner, coinType, amount);
  }

  /** Adds a shared object (the router, the adapter registry) and returns its shared ref. */
  addSharedObject(input: { type: string; objectId?: string; initialSharedVersion?: bigint }) {
    const initial = input.initialSharedVersion ?? 3n;
    const object: SuiFakeObject = {
      objectId: normalizeSuiAddress(input.objectId ?? randomObjectId()),
      version: initial,
      digest: randomDigest(),
      type: input.type,
      owner: { Shared: { initial_shared_version: initial.toString() } },
      fields: {},
      previousTransaction: randomDigest(),
    };
    this.objects.set(object.objectId, object);
    return { objectId: object.objectId, initialSharedVersion: initial.toString() };
  }

  /**
   * Sets an object's Move fields as a transaction wrote them (a new version and digest); creates
   * it, owned by `owner`, when it does not exist yet (a dynamic field's first write).
   */
  writeObject(input: {
    objectId: string;
    type: string;
    fields: Readonly<Record<string, unknown>>;
    owner?: SuiFakeOwner;
  }): void {
    const objectId = normalizeSuiAddress(input.objectId);
    const known = this.objects.get(objectId);
    if (known) {
      const past = this.pastObjects.get(objectId) ?? new Map<bigint, SuiFakeObject>();
      past.set(known.version, known);
      this.pastObjects.set(objectId, past);
    }
    const version = (known?.version ?? 0n) + 1n;
    const object: SuiFakeObject = {
      objectId,
      version,
      digest: randomDigest(),
      type: input.type,
      owner: known?.owner ?? input.owner ?? 'Immutable',
      fields: input.fields,
      previousTransaction: known?.previousTransaction ?? randomDigest(),
    };
    this.objects.set(objectId, object);
    this.objectChanges.push({
      objectId,
      owner: object.owner,
      version,
      digest: object.digest,
      previousVersion: known?.version,
    });
  }

  /** The writes since the last call (a transaction's), and forgets them. */
  takeObjectChanges(): SuiFakeObjectChange[] {
    const changes = this.objectChanges;
    this.objectChanges = [];
    return changes;
  }

  /** An object at `version`: the current one or one `writeObject` replaced. */
  objectAt(objectId: string, version: bigint): SuiFakeObject | undefined {
    const id = normalizeSuiAddress(objectId);
    const current = this.objects.get(id);
    if (current?.version === version) return current;
    return this.pastObjects.get(id)?.get(version);
  }

  /** Adds a system shared object (Clock 0x6, SuiSystemState 0x5) once. */
  ensureSystemObject(objectId: string, type: string): void {
    if (this.objects.has(normalizeSuiAddress(objectId))) return;
    this.addSharedObject({ type, objectId, initialSharedVersion: 1n });
  }

  /** Every coin of `coinType` owned by `owner`, oldest first. */
  coinsOf(owner: string, coinType: string): SuiFakeObject[] {
    const address = normalizeSuiAddress(owner);
    const key = coinTypeKey(coinType);
    return [...this.objects.values()].filter(
      (object) => object.coin?.coinType === key && ownerAddress(object.owner) === address,
    );
  }

  /** Every coin owned by `owner`, any type. */
  allCoinsOf(owner: string): SuiFakeObject[] {
    const address = normalizeSuiAddress(owner);
    return [...this.objects.values()].filter(
      (object) => object.coin !== undefined && ownerAddress(object.owner) === address,
    );
  }

  /**
   * Records (or replaces) a transaction's effects and returns its digest; `signatures` are set by
   * `sui_executeTransactionBlock`.
   */
  recordTransaction(input: RecordTransactionInput, signatures?: readonly string[]): string {
    const bytes = input.transaction;
    const data = bytes ? TransactionDataBuilder.fromBytes(bytes) : undefined;
    const digest =
      input.digest ?? (bytes ? TransactionDataBuilder.getDigestFromBytes(bytes) : randomDigest());
    const sender = recordedSender(input.sender, data?.sender ?? undefined);
    const previous = this.transactions.get(digest);
    let checkpoint: bigint | null;
    if (input.checkpoint === undefined) {
      checkpoint = this.nextCheckpoint();
    } else {
      checkpoint = input.checkpoint;
      if (checkpoint !== null && checkpoint > this.latestCheckpoint) {
        this.latestCheckpoint = checkpoint;
      }
    }
    this.transactions.set(digest, {
      digest,
      sender,
      status: input.status ?? 'success',
      error: input.status === 'failure' ? (input.error ?? 'MoveAbort') : undefined,
      events: input.events ?? [],
      balanceChanges: input.balanceChanges ?? [],
      checkpoint,
      timestampMs: String(Date.now()),
      bytes: bytes ?? previous?.bytes,
      signatures: signatures ?? previous?.signatures ?? [],
      changedObjects: input.changedObjects ?? previous?.changedObjects ?? [],
    });
    return digest;
  }

  /** Advances the chain by one checkpoint and returns its sequence number. */
  nextCheckpoint(): bigint {
    this.latestCheckpoint += 1n;
    return this.latestCheckpoint;
  }

  /**
   * A new version and digest for an object a transaction mutated; the version it replaces stays
   * readable (`sui_tryGetPastObject`), as on a node.
   */
  mutate(object: SuiFakeObject, version: bigint, transaction: string): void {
    const past = this.pastObjects.get(object.objectId) ?? new Map<bigint, SuiFakeObject>();
    past.set(object.version, { ...object });
    this.pastObjects.set(object.objectId, past);
    object.version = version;
    object.digest = randomDigest();
    object.previousTransaction = transaction;
  }
}

function recordedSender(given: string | undefined, inBytes: string | undefined): string {
  const sender = given ?? inBytes;
  if (sender === undefined) throw new RangeError('sender: required without transaction bytes');
  if (inBytes !== undefined && normalizeSuiAddress(inBytes) !== normalizeSuiAddress(sender)) {
    throw new RangeError('sender: differs from the sender of the transaction bytes');
  }
  return normalizeSuiAddress(sender);
}

/** The owned-object ref of a stored object. */
export function refOf(object: SuiFakeObject): SuiFakeObjectRef {
  return { objectId: object.objectId, version: object.version.toString(), digest: object.digest };
}
