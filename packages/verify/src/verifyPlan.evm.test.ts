import { createEvmAdapter } from '@yieldrouter/chain-evm';
import type { LegRequest, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import { encodeFunctionData, parseAbi } from 'viem';
import { planOf, withLeg } from './testing/planOf';
import type { VerifiableLeg } from './verdict';
import { verifyPlan } from './verifyPlan';

// EVM legs as chain-evm builds them (offline), then tampered the way a compromised server could.
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const VAULT = '0x1111111111111111111111111111111111111111';
const POOL = '0x2222222222222222222222222222222222222222';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PAYEE = '0x5555555555555555555555555555555555555555';
const THIEF = '0x6666666666666666666666666666666666666666';
const PLAN = 'plan_00112233445566778899aabbccddeeff';
const OTHER_PLAN_TAG = '53564331ffeeddccbbaa99887766554433221100';

const adapter = createEvmAdapter({
  chain: 'base',
  rpcUrl: undefined,
  timeoutMs: 1_000,
  usdcAddress: USDC,
  registryAddress: undefined,
});
const vault: VenueOnChain = {
  venueId: 'v',
  chain: 'base',
  standard: 'erc4626',
  ids: { vault: VAULT },
};
const aave: VenueOnChain = {
  venueId: 'a',
  chain: 'base',
  standard: 'aave-v3',
  ids: { pool: POOL, aToken: '0x3333333333333333333333333333333333333333' },
};
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
const erc20 = parseAbi([
  'function approve(address, uint256)',
  'function transfer(address, uint256)',
]);
const erc4626 = parseAbi(['function deposit(uint256, address)']);

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

  it('catches an approval to a foreign spender, and one above the amount', async () => {
    const plan = planOf(PLAN, OWNER, await legs(adapter.buildDeposit(request(vault))));
    const foreign = withLeg(plan, 0, (leg) =>
      withCall(
        leg,
        encodeFunctionData({ abi: erc20, functionName: 'approve', args: [THIEF, 12_500_000n] }),
      ),
    );
    expect(verifyPlan(foreign, options).reasons.map((reason) => reason.code)).toEqual([
      'approval_to_foreign_spender',
    ]);
    const unlimited = withLeg(plan, 0, (leg) =>
      withCall(
        leg,
        encodeFunctionData({ abi: erc20, functionName: 'approve', args: [VAULT, 2n ** 256n - 1n] }),
      ),
    );
    expect(verifyPlan(unlimited, options).reasons.map((reason) => reason.code)).toEqual([
      'approval_exceeds_amount',
    ]);
  });

  it('catches a transfer to a party the owner did not list, and a changed amount', async () => {
    const plan = planOf(
      PLAN,
      OWNER,
      await legs(
        adapter.buildTransfer({
          planId: PLAN,
          owner: OWNER,
          amountMicros: 12_500_000n,
          recipient: PAYEE,
        }),
      ),
    );
    const redirected = withLeg(plan, 0, (leg) =>
      withCall(
        leg,
        encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [THIEF, 12_500_000n] }),
      ),
    );
    expect(verifyPlan(redirected, options).reasons.map((reason) => reason.code)).toEqual([
      'unknown_destination',
    ]);
    const more = withLeg(plan, 0, (leg) =>
      withCall(
        leg,
        encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [PAYEE, 12_500_001n] }),
      ),
    );
    expect(verifyPlan(more, options).reasons.map((reason) => reason.code)).toEqual([
      'amount_mismatch',
    ]);
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
});
