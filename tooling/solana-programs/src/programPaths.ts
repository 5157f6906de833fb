import path from 'node:path';

/** Our Solana programs: `programs/<name>/<name>.c` builds to `build/<name>.so`. */
export const PROGRAMS = [
  'yield_router',
  'test_venue',
  'klend_standin',
  'klend_skimming',
  'cp_pool',
  'cctp_message_transmitter',
  'cctp_token_messenger_minter',
  'jupiter_lend',
  'save_lending',
  'save_skimming',
  'marginfi',
] as const;
export type ProgramName = (typeof PROGRAMS)[number];

const ROOT = path.resolve(__dirname, '..');

/** The C source of a program. */
export function programSource(name: ProgramName): string {
  return path.join(ROOT, 'programs', name, `${name}.c`);
}

/** Where `build:programs` writes the program (run it first; the file is not committed). */
export function programSoPath(name: ProgramName): string {
  return path.join(ROOT, 'build', `${name}.so`);
}
