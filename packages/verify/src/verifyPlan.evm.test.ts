import { createHash } from 'node:crypto';
import { createEvmAdapter } from '@yieldrouter/chain-evm';
import type { LegRequest, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import { encodeFunctionData, parseAbi } from 'viem';
import { canonicalJson } from './legBytesDigest';
import { planOf, withLeg } from './testing/planOf';
import type { VerifiableLeg } from './verdict';
import { verifyPlan } from './verifyPlan';

// EVM legs as chain-evm builds them (offline), then tampered the way a compromised server could.
// USDC on Arbitrum.
const USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
/** A made-up address of one repeated byte. */
const address = (byte: string): `0x${string}` => `0x${byte.repeat(20)}`;
const [VAULT, POOL, A_TOKEN, PAYEE, THIEF] = ['11', '22', '33', '55', '66'].map(address) as [
  `0x${string}`,
  `0x${string}`,
  `0x${string}`,
  `0x${string}`,
  `0x${string}`,
];
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PLAN = `plan_${'0123456789abcdef'.repeat(2)}`;
const OTHER_PLAN_TAG = `53564331${'fe'.repeat(16)}`;

const adapter = createEvmAdapter({
  chain: 'arbitrum',
  rpcUrl: undefined,
  timeoutMs: 500,
  usdcAddress: USDC,
  registryAddress: undefined,
});
const venueOf = (standard: VenueOnChain['standard'], ids: VenueOnChain['ids']): VenueOnChain => ({
  venueId: standard,
  chain: 'arbitrum',
  standard,
  ids,
});
const vault = venueOf('erc4626', { vault: VAULT });
const aave = venueOf('aave-v3', { pool: POOL, aToken: A_TOKEN });
const options = { owner: OWNER, venues: [USDC, VAULT, POOL], payees: [PAYEE] };

const request = (venue: VenueOnChain): LegRequest => ({
  planId: PLAN,
  owner: OWNER,
  amountMicros: 12_500_000n,
  target: { kind: 'venue', venue },
});

async function legs(build: Promise<{ status: string; legs?: readonly UnsignedLeg[] }>) {
  const built = await build;
  if (!built.legs) throw new Error(JSON.stringify(built));
  return built.legs;
}

/** A plan of one transfer of `amountMicros` from the owner to the payee. */
const transferPlan = async (amountMicros: bigint) =>
  planOf(
    PLAN,
    OWNER,
    await legs(
      adapter.buildTransfer({ planId: PLAN, owner: OWNER, amountMicros, recipient: PAYEE }),
    ),
  );

const tag = PLAN.slice(5);
/** A leg whose calldata is `call` followed by the plan's real tag (tampered, still tagged). */
function withCall(
  leg: VerifiableLeg,
  call: `0x${string}`,
  tagHex = `53564331${tag}`,
): VerifiableLeg {
  if (typeof leg.transaction !== 'object') throw new Error('not EVM');
  return { ...leg, transaction: { ...leg.transaction, data: `${call}${tagHex}` } };
}
/** A leg as PostgreSQL's JSONB gives it back: the request's keys shortest first. */
function jsonbOrder(leg: VerifiableLeg): VerifiableLeg {
  if (typeof leg.transaction !== 'object') throw new Error('not EVM');
  const { to, data, from, value, chainId } = leg.transaction;
  return { ...leg, transaction: { to, data, from, value, chainId } };
}
const erc20 = parseAbi([
  'function approve(address, uint256)',
  'function transfer(address, uint256)',
]);
const erc4626 = parseAbi(['function deposit(uint256, address)']);

/** The reason codes of `plan` with leg `index` calling `functionName(to, amount)` of ERC-20. */
function erc20Codes(
  plan: ReturnType<typeof planOf>,
  index: number,
  functionName: 'approve' | 'transfer',
  args: readonly [`0x${string}`, bigint],
) {
  const call = encodeFunctionData({ abi: erc20, functionName, args });
  const tampered = withLeg(plan, index, (leg) => withCall(leg, call));
  return verifyPlan(tampered, options).reasons.map((reason) => reason.code);
}

describe('verifyPlan on EVM legs', () => {
  it('verifies honest ERC-4626 and Aave deposits, withdrawals and a payee transfer', async () => {
    for (const build of [
      adapter.buildDeposit(request(vault)),
      adapter.buildDeposit(request(aave)),
      adapter.buildWithdraw(request(vault)),
      adapter.buildWithdraw(request(aave)),
      adapter.buildTransfer({
        planId: PLAN,
        owner: OWNER,
        amountMicros: 12_500_000n,
        recipient: PAYEE,
      }),
    ]) {
      const verdict = verifyPlan(planOf(PLAN, OWNER, await legs(build)), options);
      expect(verdict).toMatchObject({ status: 'verified', reasons: [], gaps: [] });
    }
  });

  it('rejects a plan whose own simulation found the venue short (a fee-on-transfer token)', async () => {
    const plan = planOf(PLAN, OWNER, await legs(adapter.buildDeposit(request(vault))));
    expect(verifyPlan(plan, options).status).toBe('verified');
    const finding = {
      legIndex: 1,
      code: 'venue_amount_mismatch',
      message: "the venue's USDC changes by 12375000; the plan deposits 12500000",
    };
    const simulated = { ...plan, simulation: { status: 'simulated', findings: [finding] } };
    expect(verifyPlan(simulated, options)).toMatchObject({
      status: 'rejected',
      reasons: [
        {
          code: 'simulation_finding',
          leg: 1,
          message: expect.stringContaining('venue_amount_mismatch'),
        },
      ],
    });
  });

  it('reports what each leg does', async () => {
    const verdict = verifyPlan(
      planOf(PLAN, OWNER, await legs(adapter.buildDeposit(request(vault)))),
      options,
    );
    expect(verdict.legs.map((leg) => leg.effects)).toEqual([
      [{ kind: 'approve', token: USDC.toLowerCase(), spender: VAULT, amount: 12_500_000n }],
      [
        {
          kind: 'venue_call',
          target: VAULT,
          call: 'deposit',
          amount: 12_500_000n,
          beneficiary: OWNER.toLowerCase(),
        },
      ],
    ]);
  });

  it('catches calldata tampered after prepare: the deposit credits someone else', async () => {
    const plan = planOf(PLAN, OWNER, await legs(adapter.buildDeposit(request(vault))));
    const tampered = withLeg(plan, 1, (leg) =>
      withCall(
        leg,
        encodeFunctionData({ abi: erc4626, functionName: 'deposit', args: [12_500_000n, THIEF] }),
      ),
    );
    const verdict = verifyPlan(tampered, options);
    expect(verdict.status).toBe('rejected');
    expect(verdict.reasons).toEqual([
      expect.objectContaining({ code: 'unknown_destination', leg: 1 }),
    ]);
  });

  it("catches bytes changed after the simulation ran: their digest is not the simulation's", async () => {
    const built = await legs(adapter.buildDeposit(request(vault)));
    // The digest the engine binds the outcome with (legBytesDigest), from node:crypto: the
    // request's canonical JSON (keys sorted).
    const digestOf = (leg: UnsignedLeg) =>
      `sha256:${createHash('sha256')
        .update(`${leg.payload.encoding}\n${canonicalJson(leg.payload.transaction)}`)
        .digest('hex')}`;
    const simulation = {
      status: 'simulated',
      legs: built.map((leg, index) => ({ index, bytesDigest: digestOf(leg) })),
      findings: [],
    };
    const plan = planOf(PLAN, OWNER, built, { simulation });
    expect(verifyPlan(plan, options)).toMatchObject({ status: 'verified', reasons: [] });
    // Read back from the plan store (JSONB keeps keys in its own order): the same bytes.
    const stored = { ...plan, legs: plan.legs.map(jsonbOrder) };
    expect(Object.keys(stored.legs?.[1]?.transaction ?? {})[0]).toBe('to');
    expect(verifyPlan(stored, options)).toMatchObject({ status: 'verified', reasons: [] });
    // A smaller approval passes every check of the bytes alone: only the digest tells.
    const smaller = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [VAULT, 1n] });
    const tampered = withLeg(plan, 0, (leg) => withCall(leg, smaller));
    expect(verifyPlan(tampered, options).reasons).toEqual([
      expect.objectContaining({ code: 'bytes_digest_mismatch', leg: 0 }),
    ]);
  });

  it('catches an approval to a foreign spender, and one above the amount', async () => {
    const plan = planOf(PLAN, OWNER, await legs(adapter.buildDeposit(request(vault))));
    expect(erc20Codes(plan, 0, 'approve', [THIEF, 12_500_000n])).toEqual([
      'approval_to_foreign_spender',
    ]);
    expect(erc20Codes(plan, 0, 'approve', [VAULT, 2n ** 256n - 1n])).toEqual([
      'approval_exceeds_amount',
    ]);
  });

  it('catches a transfer to a party the owner did not list, and a changed amount', async () => {
    const plan = await transferPlan(12_500_000n);
    expect(erc20Codes(plan, 0, 'transfer', [THIEF, 12_500_000n])).toEqual(['unknown_destination']);
    expect(erc20Codes(plan, 0, 'transfer', [PAYEE, 12_500_001n])).toEqual(['amount_mismatch']);
  });

  it('catches a missing or foreign plan tag, another sender, native value and an unknown call', async () => {
    const plan = planOf(PLAN, OWNER, await legs(adapter.buildDeposit(request(vault))));
    const codes = (change: (leg: VerifiableLeg) => VerifiableLeg) =>
      verifyPlan(withLeg(plan, 1, change), options).reasons.map((reason) => reason.code);
    const call = encodeFunctionData({
      abi: erc4626,
      functionName: 'deposit',
      args: [12_500_000n, OWNER],
    });
    expect(codes((leg) => withCall(leg, call, ''))).toEqual(['plan_tag_missing']);
    expect(codes((leg) => withCall(leg, call, OTHER_PLAN_TAG))).toEqual(['plan_tag_mismatch']);
    const tx = (leg: VerifiableLeg) =>
      (typeof leg.transaction === 'object' ? leg.transaction : undefined)!;
    expect(codes((leg) => ({ ...leg, transaction: { ...tx(leg), from: THIEF } }))).toEqual([
      'sender_not_owner',
    ]);
    expect(codes((leg) => ({ ...leg, transaction: { ...tx(leg), value: '1' } }))).toEqual([
      'unexpected_value',
    ]);
    expect(codes((leg) => withCall(leg, '0xdeadbeef'))).toEqual(['unknown_call']);
  });

  it('rejects a blocked plan, a plan of another owner and fee lines that do not add up', async () => {
    expect(verifyPlan({ status: 'blocked' }, options).reasons[0]?.code).toBe('not_prepared');
    const plan = planOf(PLAN, THIEF, await legs(adapter.buildDeposit(request(vault))));
    expect(verifyPlan(plan, options).reasons.map((reason) => reason.code)).toContain(
      'owner_mismatch',
    );
    const fees = planOf(PLAN, OWNER, await legs(adapter.buildDeposit(request(vault))), {
      feeMicros: '10',
      feeLines: [{ kind: 'service_swap_fee', amountMicros: '9' }],
    });
    expect(verifyPlan(fees, options).reasons.map((reason) => reason.code)).toEqual([
      'fee_mismatch',
    ]);
  });

  it("checks whom a bridge's mint pays: the owner's message verifies, another's does not", async () => {
    const TRANSMITTER = address('77');
    const transmitter = parseAbi(['function receiveMessage(bytes, bytes)']);
    /** A CCTP v2 burn message minting 5 USDC to `recipient` (header, then the burn body). */
    const message = (recipient: `0x${string}`): `0x${string}` =>
      `0x${'00'.repeat(148)}${'00000001'}${'00'.repeat(12)}${USDC.slice(2)}${'00'.repeat(12)}${recipient.slice(2)}${(5_000_000).toString(16).padStart(64, '0')}${'00'.repeat(128)}`;
    const mintOf = async (recipient: `0x${string}`) => {
      const plan = await transferPlan(5_000_000n);
      return withLeg(plan, 0, (leg) => {
        if (typeof leg.transaction !== 'object') throw new Error('not EVM');
        const call = encodeFunctionData({
          abi: transmitter,
          functionName: 'receiveMessage',
          args: [message(recipient), '0x1234'],
        });
        return {
          ...leg,
          action: 'mint',
          transaction: { ...leg.transaction, to: TRANSMITTER, data: `${call}53564331${tag}` },
        };
      });
    };
    const listed = { ...options, venues: [...options.venues, TRANSMITTER] };
    expect(verifyPlan(await mintOf(OWNER), listed)).toMatchObject({ status: 'verified' });
    expect(verifyPlan(await mintOf(THIEF), listed).reasons).toEqual([
      expect.objectContaining({ code: 'unknown_destination', leg: 0 }),
    ]);
  });

  it('verifies a withdrawal with its skim to a listed treasury, and catches another skim', async () => {
    const TREASURY = address('77');
    const build = adapter.buildWithdraw({
      ...request(vault),
      skim: { recipient: TREASURY, amountMicros: 62_500n },
    });
    const skim = { treasury: TREASURY, skimMicros: '62500' };
    const withTreasury = { ...options, feeRecipients: [TREASURY] };
    const plan = planOf(PLAN, OWNER, await legs(build), { skim });
    expect(verifyPlan(plan, withTreasury)).toMatchObject({ status: 'verified', reasons: [] });
    // Not disclosed, or another amount than the plan discloses: a fee no line shows.
    const codes = (checked: ReturnType<typeof planOf>) =>
      verifyPlan(checked, withTreasury).reasons.map((reason) => reason.code);
    expect(codes(planOf(PLAN, OWNER, await legs(build)))).toEqual(['fee_mismatch']);
    expect(
      codes(planOf(PLAN, OWNER, await legs(build), { skim: { ...skim, skimMicros: '1' } })),
    ).toEqual(['fee_mismatch']);
    // A treasury the owner did not list is an unknown destination.
    expect(verifyPlan(plan, options).reasons.map((reason) => reason.code)).toEqual([
      'unknown_destination',
    ]);
  });
});
