import { decodeFunctionData, parseAbi } from 'viem';
import type { Hex } from 'viem';
import type { LegCheck } from './legCheck';
import { planIdBytes, toHex } from './planIdBytes';

/**
 * The calls our EVM legs make (packages/chain-evm): ERC-20 approve/transfer, ERC-4626
 * deposit/withdraw/redeem, Aave v3 supply/withdraw, WETH withdraw, CCTP v2 depositForBurn and
 * receiveMessage. Anything else is an unknown call — or, on a swap leg, the swap source's own
 * encoding, which only its target can be checked for.
 */
const LEG_ABI = parseAbi([
  'function approve(address spender, uint256 amount)',
  'function transfer(address to, uint256 amount)',
  'function deposit(uint256 assets, address receiver)',
  'function withdraw(uint256 assets, address receiver, address owner)',
  'function redeem(uint256 shares, address receiver, address owner)',
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function withdraw(address asset, uint256 amount, address to)',
  'function withdraw(uint256 wad)',
  'function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold)',
  'function receiveMessage(bytes message, bytes attestation)',
]);

/** 'SVC1' then the 16 plan-id bytes, at the end of the calldata (chain-evm's planTag.ts). */
const TAG_MAGIC = '53564331';
const TAG_HEX_LENGTH = 2 * (4 + 16);

export const normalizeEvmAddress = (address: string): string => address.toLowerCase();

/** A bytes32 that is a left-padded EVM address, as that address; else the bytes32 itself. */
const fromBytes32 = (word: string): string =>
  /^0x0{24}[0-9a-fA-F]{40}$/.test(word) ? `0x${word.slice(26)}`.toLowerCase() : word.toLowerCase();

/**
 * An `evm-transaction-request` leg: sent by the owner with no value, calldata ending in the
 * plan's tag, a known call whose recipients, spender and amounts are the plan's.
 */
export function verifyEvmLeg(check: LegCheck): void {
  const transaction = check.leg.transaction;
  if (typeof transaction !== 'object') {
    check.fail('undecodable', 'an EVM leg must be a transaction request object');
    return;
  }
  const from = normalizeEvmAddress(transaction.from);
  const to = normalizeEvmAddress(transaction.to);
  if (from !== check.expect.owner)
    check.fail('sender_not_owner', `sent from ${from}, not the owner`);
  if (transaction.value !== '0') {
    check.fail('unexpected_value', `sends ${transaction.value} wei of native value with the call`);
  }
  const data = transaction.data.toLowerCase();
  if (!/^0x(?:[0-9a-f]{2})*$/.test(data) || data.length < 10) {
    check.fail('undecodable', 'the calldata is not hex');
    return;
  }
  const tag = data.length - 2 >= TAG_HEX_LENGTH ? data.slice(-TAG_HEX_LENGTH) : '';
  const expected = planIdBytes(check.planId);
  let call = data as Hex;
  if (!tag.startsWith(TAG_MAGIC)) {
    check.fail('plan_tag_missing', 'the calldata does not end with the plan tag');
  } else {
    call = data.slice(0, -TAG_HEX_LENGTH) as Hex;
    if (!expected || tag.slice(8) !== toHex(expected)) {
      check.fail('plan_tag_mismatch', `the calldata is tagged for another plan (${tag.slice(8)})`);
    }
  }
  let decoded: ReturnType<typeof decodeFunctionData<typeof LEG_ABI>>;
  try {
    decoded = decodeFunctionData({ abi: LEG_ABI, data: call });
  } catch {
    if (check.leg.action === 'swap') {
      check.venueCall(to, 'swap', { exact: false });
      check.gap('opaque_swap_call', `the swap calldata to ${to} is the swap source's own encoding`);
    } else {
      check.fail('unknown_call', `calls ${call.slice(0, 10)} on ${to}, not a call plans make`);
    }
    return;
  }
  const owner = check.expect.owner;
  switch (decoded.functionName) {
    case 'approve':
      check.approve(to, normalizeEvmAddress(decoded.args[0]), decoded.args[1]);
      return;
    case 'transfer':
      check.transfer(to, normalizeEvmAddress(decoded.args[0]), decoded.args[1]);
      return;
    case 'deposit':
    case 'supply': {
      // ERC-4626 deposit(assets, receiver); Aave supply(asset, amount, onBehalfOf, referral).
      const [amount, beneficiary] =
        decoded.functionName === 'deposit'
          ? [decoded.args[0], decoded.args[1]]
          : [decoded.args[1], decoded.args[2]];
      const parts = { amount, beneficiary: normalizeEvmAddress(beneficiary), exact: true };
      check.venueCall(to, decoded.functionName, parts);
      return;
    }
    case 'redeem':
    case 'withdraw': {
      const args = decoded.args as readonly unknown[];
      if (args.length === 1) {
        check.venueCall(to, 'withdraw', { amount: decoded.args[0] as bigint, exact: false });
        return;
      }
      // ERC-4626 (assets|shares, receiver, owner) pays `receiver`; Aave (asset, amount, to) `to`.
      const receiver = normalizeEvmAddress(
        String(args.length === 3 && typeof args[0] === 'bigint' ? args[1] : args[2]),
      );
      check.venueCall(to, decoded.functionName, { beneficiary: receiver, exact: false });
      if (typeof args[0] === 'bigint' && normalizeEvmAddress(String(args[2])) !== owner) {
        check.fail(
          'unknown_destination',
          `${decoded.functionName} takes shares of ${String(args[2])}`,
        );
      }
      return;
    }
    case 'depositForBurn': {
      const recipient = fromBytes32(decoded.args[2]);
      check.venueCall(to, 'depositForBurn', { amount: decoded.args[0], exact: true });
      if (!check.mayReceive(recipient)) {
        check.fail(
          'unknown_destination',
          `the bridge mints to ${recipient}, a party the owner did not list`,
        );
      }
      return;
    }
    case 'receiveMessage': {
      check.venueCall(to, 'receiveMessage', { exact: false });
      // A CCTP v2 burn message: header (148 bytes), then the body's version (4), burnToken (32)
      // and mintRecipient (32, bytes 184..216): whom the mint pays, whoever submits it.
      const message = decoded.args[0];
      if (message.length < 2 + 2 * 216) {
        check.fail('undecodable', 'the message is shorter than a CCTP v2 burn message');
        return;
      }
      const recipient = fromBytes32(`0x${message.slice(2 + 2 * 184, 2 + 2 * 216)}`);
      if (!check.mayReceive(recipient)) {
        check.fail(
          'unknown_destination',
          `the mint pays ${recipient}, a party the owner did not list`,
        );
      }
      return;
    }
  }
}
