import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { renderConfigurationDoc } from './renderConfigurationDoc';

/** Where the generated page lives in the repository. */
export const CONFIGURATION_DOC_PATH = join(__dirname, '../../../../docs/configuration.md');

/**
 * `docs/configuration.md` as the repository keeps it: rendered, then formatted by prettier with
 * the repository's settings. Prettier runs as its own process: its API loads the markdown parser
 * with a dynamic import, which jest's CommonJS mode cannot run.
 */
export function formatConfigurationDoc(): string {
  return execFileSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', CONFIGURATION_DOC_PATH],
    { input: renderConfigurationDoc(), encoding: 'utf8' },
  );
}
