import { PublicKey } from '@solana/web3.js';
import { addCctpRemote, cctpBedAttester } from '../evm/deployCctpPair';
import type { CctpBedContracts } from '../evm/deployCctpPair';
import { SOLANA_CCTP_DOMAIN, deployCctpSolana } from '../solana/deployCctpSolana';
import type { SolanaCctpDeployment } from '../solana/deployCctpSolana';
import type { SolanaBed } from '../solana/startSolanaBed';

/**
 * Deploys the CCTP v2 stand-in programs in the Solana bed, linked to the EVM stand-ins of
 * `sides` (their token messengers and USDC as remotes), and registers the Solana program as
 * each side's remote for domain 5: burns then run both ways once the Iris fake attests them.
 *
 * @example
 * const onSolana = await linkCctpSolana(solanaBed, [onBase]);
 */
export async function linkCctpSolana(
  solana: SolanaBed,
  sides: readonly CctpBedContracts[],
): Promise<SolanaCctpDeployment> {
  const onSolana = deployCctpSolana(solana, {
    attester: cctpBedAttester().address,
    remotes: sides.map((side) => ({
      domain: side.domain,
      tokenMessenger: side.tokenMessenger,
      usdc: side.usdc,
    })),
  });
  const program = new PublicKey(onSolana.tokenMessengerMinter);
  const messenger = `0x${program.toBuffer().toString('hex')}` as const;
  for (const side of sides)
    await addCctpRemote(side, { domain: SOLANA_CCTP_DOMAIN, tokenMessenger: messenger });
  return onSolana;
}
