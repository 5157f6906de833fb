import { PublicKey } from '@solana/web3.js';
import { cctpStandinPdas } from '@yieldrouter/solana-programs';
import { createPublicClient, http, parseAbi } from 'viem';
import type { Address } from 'viem';
import { startSolanaBed } from '../solana/startSolanaBed';
import type { SolanaBed } from '../solana/startSolanaBed';
import { startCctpBed } from './startCctpBed';
import type { CctpBed } from './startCctpBed';

// What `pnpm localnet` starts for bridges when it passes its Solana bed: the stand-in programs
// in the bed, registered on both anvils as domain 5, and the Iris fake taking Solana signatures.
let solana: SolanaBed;
let cctp: CctpBed;
beforeAll(async () => {
  solana = await startSolanaBed();
  cctp = await startCctpBed({ solana });
}, 120_000);
afterAll(async () => {
  await cctp?.stop();
  await solana?.stop();
});

const REMOTES = parseAbi(['function remoteTokenMessengers(uint32) view returns (bytes32)']);

it('deploys the Solana stand-ins, names them in the settings, and links both anvils both ways', async () => {
  const onSolana = cctp.solana;
  if (!onSolana) throw new Error('no Solana stand-ins');
  expect(cctp.settings).toMatchObject({
    SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER: onSolana.tokenMessengerMinter,
    SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER: onSolana.messageTransmitter,
    SVC_CCTP_SOLANA_FEE_RECIPIENT: onSolana.feeRecipient,
  });
  const program = new PublicKey(onSolana.tokenMessengerMinter);
  for (const side of [cctp.contracts.base, cctp.contracts.arbitrum]) {
    const client = createPublicClient({ transport: http(side.rpcUrl) });
    expect(
      await client.readContract({
        address: side.tokenMessenger as Address,
        abi: REMOTES,
        functionName: 'remoteTokenMessengers',
        args: [5],
      }),
    ).toBe(`0x${program.toBuffer().toString('hex')}`);
  }
  const pdas = cctpStandinPdas({
    tokenMessengerMinter: program,
    messageTransmitter: new PublicKey(onSolana.messageTransmitter),
  });
  for (const domain of [6, 3]) {
    const account = solana.svm.getAccount(pdas.remoteTokenMessenger(domain).toBase58() as never);
    expect(account.exists && account.programAddress).toBe(onSolana.tokenMessengerMinter);
  }
  // The custody the mints are paid from: the token minter's, funded with 1,000,000 USDC.
  expect(solana.tokenBalance(solana.usdcMint, pdas.tokenMinter()[0])).toBe(1_000_000_000_000n);
  expect(new PublicKey(pdas.custody(new PublicKey(solana.usdcMint))).toBase58()).toBe(
    onSolana.custody,
  );
});

it('the Iris fake takes Solana signatures for domain 5 (unknown: 404) and refuses hex there', async () => {
  const ask = (txId: string) =>
    fetch(`${cctp.iris.url}/v2/messages/5?transactionHash=${encodeURIComponent(txId)}`);
  const unknown = '5'.repeat(87);
  expect((await ask(unknown)).status).toBe(404);
  expect((await ask(`0x${'ab'.repeat(32)}`)).status).toBe(400);
});
