import type { PublicKey } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { programDataAddress } from './programInstructions';

type SvmAddress = Parameters<LiteSVM['getAccount']>[0];

/**
 * Loads a program into litesvm (upgradeable loader) with `upgradeAuthority` as its upgrade
 * authority, as `solana program deploy` leaves it on a cluster. litesvm deploys programs without
 * an authority; the router's `initialize` accepts only the authority, so the beds set it.
 *
 * @example
 * loadProgram(svm, programId, ensureProgramsBuilt().yield_router, admin.publicKey);
 */
export function loadProgram(
  svm: Pick<LiteSVM, 'addProgramFromFile' | 'getAccount' | 'setAccount'>,
  programId: PublicKey,
  soPath: string,
  upgradeAuthority: PublicKey,
): void {
  svm.addProgramFromFile(programId.toBase58() as SvmAddress, soPath);
  const address = programDataAddress(programId).toBase58() as SvmAddress;
  const account = svm.getAccount(address);
  if (!account.exists) throw new Error(`no ProgramData account for ${programId.toBase58()}`);
  const data = new Uint8Array(account.data);
  // ProgramData: u32 tag 3, u64 slot, Option<Pubkey> upgrade authority (1 + 32 bytes), the ELF.
  data[12] = 1;
  data.set(upgradeAuthority.toBytes(), 13);
  svm.setAccount({ ...account, data });
}
