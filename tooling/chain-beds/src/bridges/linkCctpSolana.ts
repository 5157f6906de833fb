import { PublicKey } from '@solana/web3.js';
import { addCctpRemote, cctpBedAttester } from '../evm/deployCctpPair';
import type { CctpBedContracts } from '../evm/deployCctpPair';
import { SOLANA_CCTP_DOMAIN, deployCctpSolana } from '../solana/deployCctpSolana';
import type { SolanaCctpDeployment } from '../solana/deployCctpSolana';
import type { SolanaBed } from '../solana/startSolanaBed';
import { SUI_CCTP_DOMAIN } from '../sui/cctpBed';
import type { SuiFakeCctp } from '../sui/cctp';

const bytes32 = (key: PublicKey) => `0x${key.toBuffer().toString('hex')}` as const;

/**
 * Deploys the CCTP v2 stand-in programs in the Solana bed, linked to the EVM stand-ins of
 * `sides` (their token messengers and USDC as remotes), and registers the Solana program as
 * each side's remote for domain 5: burns then run both ways once the Iris fake attests them.
 * With `sui` (the Sui fake's packages), Sui is linked the same way: domain 8 (its token
 * messenger identifier and USDC token id) on Solana, Solana's program and USDC mint on Sui.
 *
 * @example
 * const onSolana = await linkCctpSolana(solanaBed, [onBase]);
 * const between = await linkCctpSolana(solanaBed, [], { sui: suiFake.addCctp(…) });
 */
export async function linkCctpSolana(
  solana: SolanaBed,
  sides: readonly CctpBedContracts[],
  options: { readonly sui?: SuiFakeCctp } = {},
): Promise<SolanaCctpDeployment> {
  const { sui } = options;
  const onSolana = deployCctpSolana(solana, {
    attester: cctpBedAttester().address,
    remotes: [
      ...sides.map((side) => ({
        domain: side.domain,
        tokenMessenger: side.tokenMessenger,
        usdc: side.usdc,
      })),
      ...(sui
        ? [
            {
              domain: SUI_CCTP_DOMAIN,
              tokenMessenger: sui.tokenMessengerIdentifier,
              usdc: sui.usdcTokenId,
            },
          ]
        : []),
    ],
  });
  const messenger = bytes32(new PublicKey(onSolana.tokenMessengerMinter));
  for (const side of sides)
    await addCctpRemote(side, { domain: SOLANA_CCTP_DOMAIN, tokenMessenger: messenger });
  sui?.addRemote({
    domain: SOLANA_CCTP_DOMAIN,
    tokenMessenger: messenger,
    usdc: bytes32(new PublicKey(solana.usdcMint)),
  });
  return onSolana;
}
