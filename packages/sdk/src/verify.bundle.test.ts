import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import type * as verifyEntry from './verify';

// `@yieldrouter/sdk/verify` as a browser app bundles it (esbuild, platform browser, the chain SDKs
// bundled from their browser builds), run in a bare context: web globals only, no `fetch`, no
// `require`, no `process`, no `Buffer` — the verifier needs no network and no Node built-in.
const root = join(__dirname, '..');
const OWNER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const VAULT = '0x1111111111111111111111111111111111111111';
const PLAN = 'plan_00112233445566778899aabbccddeeff';
const word = (hex: string) => hex.padStart(64, '0');
const plan = {
  planId: PLAN,
  status: 'prepared',
  legs: [
    {
      index: 0,
      action: 'deposit',
      amountMicros: '5000000',
      encoding: 'evm-transaction-request',
      transaction: {
        chainId: 8453,
        from: OWNER,
        to: VAULT,
        // ERC-4626 deposit(5 USDC, owner) and the plan tag.
        data: `0x6e553f65${word((5_000_000).toString(16))}${word(OWNER.slice(2))}53564331${PLAN.slice(5)}`,
        value: '0',
      },
    },
  ],
};

// The digest the server's simulation binds the leg with: sha256 of `<encoding>\n<transaction>`,
// an EVM request's keys sorted (its canonical JSON: docs/verify.md).
const leg = plan.legs[0]!;
const sortedKeys = Object.keys(leg.transaction).sort();
const simulated = {
  ...plan,
  simulation: {
    status: 'simulated',
    findings: [],
    legs: [
      {
        index: 0,
        bytesDigest: `sha256:${createHash('sha256')
          .update(`${leg.encoding}\n${JSON.stringify(leg.transaction, sortedKeys)}`)
          .digest('hex')}`,
      },
    ],
  },
};
// As the plan store (JSONB) serves it back: the same request, its keys in another order.
const { to, data, from, value, chainId } = leg.transaction;
const reordered = {
  ...simulated,
  legs: [{ ...leg, transaction: { to, data, from, value, chainId } }],
};
// The same plan moved to another chain after the simulation ran: only the digest tells.
const changed = {
  ...simulated,
  legs: [{ ...leg, transaction: { ...leg.transaction, chainId: 1 } }],
};

beforeAll(() => {
  if (!existsSync(join(root, 'dist/verify.mjs'))) {
    throw new Error('dist/ is missing: run `pnpm --filter @yieldrouter/sdk build` first');
  }
});

it('bundles for the browser and verifies a plan with web globals only', async () => {
  const result = await build({
    stdin: {
      contents: [
        `import { verifyPlan } from './dist/verify.mjs';`,
        `globalThis.verdict = verifyPlan(${JSON.stringify(plan)}, { owner: '${OWNER}', venues: ['${VAULT}'] });`,
        // sha256 of the bytes (the simulation's digest) with web globals only.
        `globalThis.simulated = verifyPlan(${JSON.stringify(simulated)}, { owner: '${OWNER}', venues: ['${VAULT}'] });`,
        `globalThis.reordered = verifyPlan(${JSON.stringify(reordered)}, { owner: '${OWNER}', venues: ['${VAULT}'] });`,
        `globalThis.changed = verifyPlan(${JSON.stringify(changed)}, { owner: '${OWNER}', venues: ['${VAULT}'] });`,
      ].join('\n'),
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const context: Record<string, unknown> = {
    TextEncoder,
    TextDecoder,
    atob,
    btoa,
    crypto: globalThis.crypto,
    console,
    Uint8Array,
  };
  context['globalThis'] = context;
  context['window'] = context;
  context['self'] = context;
  runInNewContext(code, context);
  expect(context['verdict']).toMatchObject({ status: 'verified', reasons: [] });
  expect(context['simulated']).toMatchObject({ status: 'verified', reasons: [] });
  expect(context['reordered']).toMatchObject({ status: 'verified', reasons: [] });
  expect(context['changed']).toMatchObject({
    status: 'rejected',
    reasons: [expect.objectContaining({ code: 'bytes_digest_mismatch', leg: 0 })],
  });
}, 60_000);

it('runs in Node from the CommonJS build', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cjs = require(join(root, 'dist/verify.js')) as typeof verifyEntry;
  const options = { owner: OWNER, venues: [VAULT] };
  expect(cjs.verifyPlan(plan, options).status).toBe('verified');
  const tampered = {
    ...plan,
    legs: [{ ...plan.legs[0]!, transaction: { ...plan.legs[0]!.transaction, to: OWNER } }],
  };
  expect(cjs.verifyPlan(tampered, options).reasons.map((reason) => reason.code)).toEqual([
    'unknown_destination',
  ]);
});
