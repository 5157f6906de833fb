import { AddressLookupTableAccount, PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { MessageAccountKeys } from '@solana/web3.js';
import type { LegCheck } from './legCheck';
import { planIdBytes, sameBytes, toHex } from './planIdBytes';

const TOKEN_PROGRAMS = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
];
const ASSOCIATED_TOKEN_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
/** Programs that move nothing of the owner's by themselves (their accounts are still checked). */
const NEUTRAL_PROGRAMS = new Set([
  '11111111111111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  ASSOCIATED_TOKEN_PROGRAM.toBase58(),
  MEMO_PROGRAM,
]);

/**
 * Our router program's instructions (packages/chain-solana, routerInstructionData.ts): Anchor
 * discriminators sha256("global:<name>")[0..8], then u64 LE amount, then the 16 plan-id bytes.
 * Whether the amount is the leg's USDC amount (a withdrawal from a venue may count receipts).
 */
const ROUTER_INSTRUCTIONS: Readonly<Record<string, { name: string; exact: boolean }>> = {
  f223c68952e1f2b6: { name: 'deposit', exact: true },
  b712469c946da122: { name: 'withdraw', exact: true },
  a5291adcb9950d1f: { name: 'deposit_to_venue', exact: true },
  eb5cf47d0acf732b: { name: 'withdraw_from_venue', exact: false },
};

const readU64 = (data: Uint8Array, offset: number): bigint =>
  new DataView(data.buffer, data.byteOffset + offset, 8).getBigUint64(0, true);

const fromBase64 = (text: string): Uint8Array =>
  Uint8Array.from(atob(text), (character) => character.charCodeAt(0));

/** Solana addresses are canonical in base58 already; a bad one stays as given (never matches). */
export const normalizeSolanaAddress = (address: string): string => address;

function deserialize(check: LegCheck): VersionedTransaction | undefined {
  const transaction = check.leg.transaction;
  try {
    if (typeof transaction !== 'string') throw new Error('not base64');
    return VersionedTransaction.deserialize(fromBase64(transaction));
  } catch {
    check.fail('undecodable', 'the leg is not a base64 Solana transaction');
    return undefined;
  }
}

/** The transaction's account keys, lookup tables resolved from the options when it uses any. */
function accountKeysOf(
  check: LegCheck,
  transaction: VersionedTransaction,
): MessageAccountKeys | undefined {
  const message = transaction.message;
  const tables: AddressLookupTableAccount[] = [];
  for (const lookup of message.addressTableLookups) {
    const key = lookup.accountKey.toBase58();
    const addresses = check.expect.lookupTables?.[key];
    if (!addresses) {
      check.gap(
        'lookup_table_unresolved',
        `uses lookup table ${key}, which the options do not supply`,
      );
      return undefined;
    }
    tables.push(
      new AddressLookupTableAccount({
        key: lookup.accountKey,
        state: {
          deactivationSlot: BigInt('18446744073709551615'),
          lastExtendedSlot: 0,
          lastExtendedSlotStartIndex: 0,
          addresses: addresses.map((address) => new PublicKey(address)),
        },
      }),
    );
  }
  return message.getAccountKeys({ addressLookupTableAccounts: tables });
}

/**
 * Accounts a leg may write besides the listed ones: the associated token accounts (both token
 * programs) of the owner, payees, fee recipients and listed accounts (a router vault) for the
 * listed keys of the leg (its mints), and the owner's `["position", owner]` and
 * `["venue_position", owner, adapter]` PDAs of each listed program the leg invokes.
 */
function derivedAccounts(
  check: LegCheck,
  keys: readonly PublicKey[],
  programs: readonly PublicKey[],
) {
  const { owner, payees, feeRecipients, venues } = check.expect;
  const wallets = [owner, ...payees, ...feeRecipients, ...venues].flatMap((address) => {
    try {
      return [new PublicKey(address)];
    } catch {
      return [];
    }
  });
  const derived = new Set<string>();
  const tokenPrograms = TOKEN_PROGRAMS.map((program) => new PublicKey(program));
  for (const wallet of wallets) {
    for (const mint of keys.filter((key) => venues.has(key.toBase58()))) {
      for (const program of tokenPrograms) {
        derived.add(
          PublicKey.findProgramAddressSync(
            [wallet.toBytes(), program.toBytes(), mint.toBytes()],
            ASSOCIATED_TOKEN_PROGRAM,
          )[0].toBase58(),
        );
      }
    }
  }
  const ownerKey = wallets[0];
  for (const program of programs) {
    if (!ownerKey || !venues.has(program.toBase58())) continue;
    derived.add(
      PublicKey.findProgramAddressSync(
        [new TextEncoder().encode('position'), ownerKey.toBytes()],
        program,
      )[0].toBase58(),
    );
    // The owner's position in one venue: `["venue_position", owner, adapter]` of a listed adapter.
    for (const adapter of keys.filter((key) => venues.has(key.toBase58()))) {
      derived.add(
        PublicKey.findProgramAddressSync(
          [new TextEncoder().encode('venue_position'), ownerKey.toBytes(), adapter.toBytes()],
          program,
        )[0].toBase58(),
      );
    }
  }
  return derived;
}

/**
 * A `solana-v0-base64` leg: the owner pays the fee, the memo `svc:<planId>` is there, every
 * program it invokes is listed (or moves nothing by itself), every account it writes is the
 * owner's, a listed party's or derived from them, SPL token transfers and approvals go where
 * and for what the plan says, and the router's instructions carry the plan id and the amount.
 */
export function verifySolanaLeg(check: LegCheck): void {
  const transaction = deserialize(check);
  if (!transaction) return;
  const message = transaction.message;
  const payer = message.staticAccountKeys[0]?.toBase58();
  if (payer !== check.expect.owner)
    check.fail('sender_not_owner', `the fee payer is ${payer}, not the owner`);
  const memo = new TextEncoder().encode(`svc:${check.planId}`);
  const keys = accountKeysOf(check, transaction);
  const static_ = message.staticAccountKeys;
  const keyAt = (index: number) => (keys ? keys.get(index) : static_[index]);
  let tagged = false;
  const programs: PublicKey[] = [];
  for (const instruction of message.compiledInstructions) {
    const program = keyAt(instruction.programIdIndex);
    if (!program) continue;
    programs.push(program);
    const programId = program.toBase58();
    const data = instruction.data;
    const accounts = instruction.accountKeyIndexes.map((index) => keyAt(index)?.toBase58() ?? '?');
    if (programId === MEMO_PROGRAM) {
      if (sameBytes(data, memo)) tagged = true;
    } else if (TOKEN_PROGRAMS.includes(programId)) {
      tokenInstruction(check, programId, data, accounts);
    } else if (!NEUTRAL_PROGRAMS.has(programId)) {
      routerOrVenueInstruction(check, programId, data);
    }
  }
  if (!tagged) check.fail('plan_tag_missing', `no memo svc:${check.planId}`);
  if (!keys) return;
  const all = keys.staticAccountKeys.concat(
    keys.accountKeysFromLookups?.writable ?? [],
    keys.accountKeysFromLookups?.readonly ?? [],
  );
  const derived = derivedAccounts(check, all, programs);
  all.forEach((key, index) => {
    const address = key.toBase58();
    if (!message.isAccountWritable(index) || check.mayReceive(address) || derived.has(address))
      return;
    check.fail(
      'unknown_destination',
      `writes account ${address}, which is neither the owner's nor a listed party's`,
    );
  });
}

function tokenInstruction(
  check: LegCheck,
  programId: string,
  data: Uint8Array,
  accounts: readonly string[],
): void {
  const tag = data[0];
  // Transfer 3 [source, destination, authority]; TransferChecked 12 [source, mint, destination,
  // authority]; Approve 4 [source, delegate, owner]; ApproveChecked 13 [source, mint, delegate,
  // owner]. Revoke 5, CloseAccount 9 and SyncNative 17 move nothing to anyone else (the accounts
  // they write are checked with the rest).
  if (tag === 3 || tag === 12) {
    const to = accounts[tag === 3 ? 1 : 2] ?? '?';
    check.transfer(programId, to, readU64(data, 1));
  } else if (tag === 4 || tag === 13) {
    check.approve(programId, accounts[tag === 4 ? 1 : 2] ?? '?', readU64(data, 1));
  } else if (tag !== 5 && tag !== 9 && tag !== 17) {
    check.fail('unknown_call', `SPL token instruction ${String(tag)} is not one plans make`);
  }
}

function routerOrVenueInstruction(check: LegCheck, programId: string, data: Uint8Array): void {
  const known = data.length === 32 ? ROUTER_INSTRUCTIONS[toHex(data.subarray(0, 8))] : undefined;
  if (!known) {
    // A venue's own setup (a reserve refresh…) or a swap program: listed, or money may leave.
    check.venueCall(programId, 'instruction', { exact: false });
    return;
  }
  const amount = readU64(data, 8);
  check.venueCall(programId, known.name, { amount, exact: known.exact });
  const expected = planIdBytes(check.planId);
  if (!expected || !sameBytes(data.subarray(16, 32), expected)) {
    check.fail(
      'plan_tag_mismatch',
      `${known.name} carries plan bytes ${toHex(data.subarray(16, 32))}`,
    );
  }
}
