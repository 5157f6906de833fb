import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { USDC } from '@yieldrouter/chain-sui/src/testFixtures';
import {
  fundedWallet,
  useVenueBed,
  withTransaction,
} from '@yieldrouter/chain-sui/src/venues/walletSend.testing';
import type { UnsignedLeg } from '@yieldrouter/schemas';
import { newPlanId } from '@yieldrouter/schemas';
import { storedLeg } from '../plan/legDocument';
import { simulatePlan } from './simulatePlan';

// Issue 44 on a Sui transfer leg (auto-pay's payout), dry-run on the bed fake: the payee's change
// carries role `payee`, nothing is unobserved, and the findings judge the leg as on EVM. A leg
// whose PTB pays the payee less and a stranger the rest is caught at prepare.

const bed = useVenueBed();

async function payout(owner: string, payee: string, amountMicros: bigint) {
  const build = await bed().adapter.buildTransfer({
    planId: newPlanId(),
    owner,
    recipient: payee,
    amountMicros,
  });
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
  return build.legs[0] as UnsignedLeg;
}

const simulate = (owner: string, payee: string, leg: UnsignedLeg) =>
  simulatePlan({
    adapters: { sui: bed().adapter },
    planId: leg.planId,
    chain: 'sui',
    legs: [storedLeg(leg, 'pay_out', null)],
    roles: { owner, venue: [], treasury: [], payee: [payee] },
  });

it('an honest payout: the owner pays, the payee (role payee) receives, no findings', async () => {
  const owner = fundedWallet(bed().fake).toSuiAddress();
  const payee = new Ed25519Keypair().toSuiAddress();
  const simulation = await simulate(owner, payee, await payout(owner, payee, 3_000_000n));
  if (simulation.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  expect(simulation.findings).toEqual([]);
  expect(simulation.legs[0]).not.toHaveProperty('unobserved');
  expect(simulation.legs[0]?.changes.filter((change) => change.usdc)).toEqual(
    expect.arrayContaining([
      { account: owner, role: 'owner', asset: USDC, usdc: true, delta: '-3000000' },
      { account: payee, role: 'payee', asset: USDC, usdc: true, delta: '3000000' },
    ]),
  );
});

it('a payout PTB that shorts the payee and pays a stranger: every finding is raised', async () => {
  const owner = fundedWallet(bed().fake).toSuiAddress();
  const payee = new Ed25519Keypair().toSuiAddress();
  const stranger = new Ed25519Keypair().toSuiAddress();
  const honest = await payout(owner, payee, 3_000_000n);
  // The same leg (amount 3 USDC, tagged with the plan), its bytes swapped before the dry run:
  // 2 USDC to the payee, 1.5 USDC to a stranger.
  const tx = new Transaction();
  tx.setSender(owner);
  tx.transferObjects([coinWithBalance({ type: USDC, balance: 2_000_000n })], payee);
  tx.transferObjects([coinWithBalance({ type: USDC, balance: 1_500_000n })], stranger);
  const simulation = await simulate(owner, payee, await withTransaction(honest, tx));
  if (simulation.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  expect(simulation.findings.map((finding) => finding.code).sort()).toEqual([
    'owner_amount_mismatch',
    'payee_amount_mismatch',
    'unexpected_recipient',
  ]);
});

it("a wallet leg (liquid is the owner's wallet): no USDC moves, no findings; sent elsewhere, caught", async () => {
  const owner = fundedWallet(bed().fake).toSuiAddress();
  const stranger = new Ed25519Keypair().toSuiAddress();
  const build = await bed().adapter.buildDeposit({
    planId: newPlanId(),
    owner,
    amountMicros: 3_000_000n,
    target: { kind: 'router' },
  });
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
  const leg = build.legs[0] as UnsignedLeg;
  const run = (unsigned: UnsignedLeg) =>
    simulatePlan({
      adapters: { sui: bed().adapter },
      planId: unsigned.planId,
      chain: 'sui',
      legs: [storedLeg(unsigned, 'fund_liquid', null)],
      roles: { owner, venue: [], treasury: [] },
    });
  const honest = await run(leg);
  if (honest.status !== 'simulated') throw new Error(JSON.stringify(honest));
  expect(honest.findings).toEqual([]);
  expect(honest.legs[0]?.changes.filter((change) => change.usdc)).toEqual([]);
  // Its bytes swapped: the amount sent to a stranger instead of the owner themself.
  const tx = new Transaction();
  tx.setSender(owner);
  tx.transferObjects([coinWithBalance({ type: USDC, balance: 3_000_000n })], stranger);
  const swapped = await run(await withTransaction(leg, tx));
  if (swapped.status !== 'simulated') throw new Error(JSON.stringify(swapped));
  expect(swapped.findings.map((finding) => finding.code).sort()).toEqual([
    'owner_amount_mismatch',
    'unexpected_recipient',
  ]);
});
