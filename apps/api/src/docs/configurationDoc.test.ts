import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CONFIGURATION_DOC_PATH, formatConfigurationDoc } from './formatConfigurationDoc';
import { CONFIGURATION_DOC_COMMAND, renderConfigurationDoc } from './renderConfigurationDoc';
import { EnvSchema } from '../env';

it('docs/configuration.md is what the settings schemas generate', () => {
  const expected = formatConfigurationDoc();
  const actual = readFileSync(CONFIGURATION_DOC_PATH, 'utf8');
  if (actual !== expected) {
    throw new Error(
      `docs/configuration.md is stale: run \`${CONFIGURATION_DOC_COMMAND}\` and commit the result`,
    );
  }
});

it('documents every variable the API accepts, with its default', () => {
  const page = renderConfigurationDoc();
  for (const name of Object.keys(EnvSchema.shape)) expect(page).toContain(`| \`${name}\` |`);
  expect(page).toContain('| `SVC_RPC_TIMEOUT_MS` | `4000` |');
  expect(page).toContain('| `SVC_KEEPER_SETTLEMENT_GIVE_UP_MS` | `1800000` (30 min) |');
  expect(page).toContain('| `SVC_TRUST_PROXY` | `false` |');
  expect(page).toContain('| `DATABASE_URL` | unset |');
  expect(page).toContain('| `SVC_API_KEY_SECRET` | development secret |');
});

it('names the file to describe a new setting in, when one has no description', () => {
  const withNew = EnvSchema.extend({ SVC_SOMETHING_NEW: z.string().optional() });
  expect(Object.keys(withNew.shape)).toContain('SVC_SOMETHING_NEW');
  expect(() => renderConfigurationDoc(withNew)).toThrow(
    'no description for SVC_SOMETHING_NEW: add it to apps/api/src/apiSettingDescriptions.ts',
  );
});
