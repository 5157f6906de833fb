import type { ServiceSettings } from './serviceSettings';
import type { SettingDescriptions } from './settingDescription';

const EXECUTABLE_SWITCH =
  'Per-chain switch of an Executable home (Sui, Solana). With both `SVC_<CHAIN>_EXECUTION_ENABLED` and `SVC_<CHAIN>_BROADCAST_ENABLED` on, the server broadcasts owner-signed legs (execution mode `broadcast`); otherwise the owner submits them.';
const MAP_SWITCH = 'Base and Arbitrum are Map chains: setting `true` is refused at start.';
const SUI_OBJECT_ID =
  'Sui object id (0x + 64 hex) of our Sui deployment, served by `/svc/packages`.';
const SOLANA_ACCOUNT =
  'Solana account (base58) of our router deployment, served by `/svc/packages`.';
const RPC_URL =
  'Chain RPC endpoint (http/https). Unset: balance legs read N/A (`rpc_not_configured`) and legs that need the chain are blocked. The URL is never shown by the API.';
const LOCAL_USDC = "Circle's native USDC. Override only for a local chain bed.";
const EVM_SWAP_FEE_RECIPIENT =
  "Where the service's swap fee and gas-sponsor fee are paid on this chain (0x `swapFeeRecipient`, taken from the input). Unset while `swapFeeBps` / `gasSponsorFeeBps` > 0: swap / gas-sponsor plans there are blocked, naming it.";
const EVM_SWAP_TOKENS =
  "Extra swap tokens, `SYMBOL:0xaddress:decimals[,…]`. USDC (the chain's USDC setting) and WETH (the chain's canonical WETH) are always there.";
const CCTP_EVM_CONTRACT =
  "Circle CCTP v2 `TokenMessengerV2` / `MessageTransmitterV2` on this chain (Circle publishes `0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d` / `0x81D40F21F12A8F0E3252Bccb954D722d4c464B64` on its EVM mainnets; check Circle's docs before setting). A lane runs when both ends are set.";
const CCTP_SOLANA_PROGRAM =
  "Circle's CCTP v2 programs on Solana, TokenMessengerMinterV2 / MessageTransmitterV2 (mainnet `CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe` / `CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC`, from circlefin/solana-cctp-contracts). With both and `SVC_CCTP_SOLANA_FEE_RECIPIENT` set, the Solana lanes run.";
const CCTP_SUI_OBJECT =
  "Circle's CCTP v2 packages on Sui (TokenMessengerMinterV2, MessageTransmitterV2, the USDC StablecoinHandler; not the v1 package ids) and their shared objects (USDC's `Treasury<USDC>`). All seven `SVC_CCTP_SUI_*` set: the Sui lanes run.";
const EVM_BRIDGE_FEE_RECIPIENT =
  "Where the service's bridge fee (`bridgeFeeBps`) is paid on this source chain; unset blocks bridges from it while the fee is above 0.";
const NON_EVM_BRIDGE_FEE_RECIPIENT =
  "Where the service's bridge fee is paid on this chain (a USDC transfer in the burn's own transaction); unset blocks bridges from it while the fee is above 0.";

/** The meaning of every setting the API and the keeper share (engine `ServiceSettings`). */
export const SERVICE_SETTING_DESCRIPTIONS: SettingDescriptions<typeof ServiceSettings> = {
  NODE_ENV: {
    meaning:
      '`production` requires `SVC_API_KEY_SECRET` and skips response self-validation; `development` or `test` otherwise.',
  },
  LOG_LEVEL: {
    meaning: 'pino level (`silent` … `trace`). Keys, signatures and bodies are never logged.',
  },
  DATABASE_URL: {
    meaning:
      'PostgreSQL URL. Pending migrations are applied at start. Unset: embedded PGlite (the API; the keeper process needs PostgreSQL).',
  },
  REDIS_URL: {
    meaning:
      "Rate-limit counters and the keeper's queues. If unreachable the API still serves, logs it, and counts per process.",
  },
  SVC_DRAIN_TIMEOUT_MS: {
    meaning:
      'SIGTERM / SIGINT (API and keeper): how long a process drains — requests under way answered, running jobs finished — before it cuts what is left (jobs go back to their queues), closes its pools and exits 0. 1000 … 600000.',
  },
  SVC_IDEMPOTENCY_LOCK_MS: {
    meaning:
      'How long a request with an Idempotency-Key holds its claim: a retry with the same key waits (409 IDEMPOTENCY_IN_PROGRESS) until the first answers or, if its process died, until this has passed, then runs the request again. Keep it well above every upstream timeout. 1000 … 600000.',
  },
  SVC_SUI_EXECUTION_ENABLED: { meaning: EXECUTABLE_SWITCH },
  SVC_SUI_BROADCAST_ENABLED: { meaning: EXECUTABLE_SWITCH },
  SVC_SOLANA_EXECUTION_ENABLED: { meaning: EXECUTABLE_SWITCH },
  SVC_SOLANA_BROADCAST_ENABLED: { meaning: EXECUTABLE_SWITCH },
  SVC_BASE_EXECUTION_ENABLED: { meaning: MAP_SWITCH, default: '`false`' },
  SVC_BASE_BROADCAST_ENABLED: { meaning: MAP_SWITCH, default: '`false`' },
  SVC_ARBITRUM_EXECUTION_ENABLED: { meaning: MAP_SWITCH, default: '`false`' },
  SVC_ARBITRUM_BROADCAST_ENABLED: { meaning: MAP_SWITCH, default: '`false`' },
  SVC_SUI_PACKAGE_ID: { meaning: SUI_OBJECT_ID },
  SVC_SUI_UPGRADE_CAP_ID: { meaning: SUI_OBJECT_ID },
  SVC_SUI_ADAPTER_REGISTRY_ID: { meaning: SUI_OBJECT_ID },
  SVC_SUI_YIELD_ROUTER_ID: { meaning: SUI_OBJECT_ID },
  SVC_SUI_PROTOCOL_CONFIG_ID: { meaning: SUI_OBJECT_ID },
  SVC_SUI_TESTNET_PACKAGE_ID: { meaning: SUI_OBJECT_ID },
  SVC_SOLANA_PROGRAM_ID: {
    meaning: `${SOLANA_ACCOUNT} The router program; its PDAs derive from it.`,
  },
  SVC_SOLANA_ADAPTER_REGISTRY: { meaning: SOLANA_ACCOUNT },
  SVC_SOLANA_YIELD_ROUTER: { meaning: SOLANA_ACCOUNT },
  SVC_SOLANA_UPGRADE_AUTHORITY: { meaning: SOLANA_ACCOUNT },
  SVC_BASE_REGISTRY_ADDRESS: { meaning: 'EVM registry address on Base.' },
  SVC_BASE_DEPLOY_TX: { meaning: "The Base registry's deploy transaction." },
  SVC_ARBITRUM_REGISTRY_ADDRESS: { meaning: 'EVM registry address on Arbitrum.' },
  SVC_ARBITRUM_DEPLOY_TX: { meaning: "The Arbitrum registry's deploy transaction." },
  SVC_BASE_CAGE_ADDRESS: {
    meaning:
      'Our YieldCage contract on Base (0x + 40 hex; `pnpm localnet` deploys one on each bed and sets both). Unset: the cage routes answer `contract.address: null` / `blocked` with `cage_not_configured`. See [The cage](cage.md).',
  },
  SVC_ARBITRUM_CAGE_ADDRESS: {
    meaning: 'Our YieldCage contract on Arbitrum, as `SVC_BASE_CAGE_ADDRESS`.',
  },
  SVC_SOLANA_TREASURY: {
    meaning:
      'The wallet the Solana yield skim is paid to (base58). The router enforces the treasury its registry names (`set_fee_config`, [venues/solana.md](venues/solana.md)); set this to the same wallet so GET /svc/fees `treasuries.solana` says it. Unset: null.',
  },
  SVC_SUI_TREASURY: {
    meaning:
      'The address the Sui yield skim is paid to (0x + 64 hex), served as GET /svc/fees `treasuries.sui`. Unset: null.',
  },
  SVC_BASE_TREASURY: {
    meaning:
      'The address the Base yield skim is paid to (0x + 40 hex), served as GET /svc/fees `treasuries.base`. Unset: null.',
  },
  SVC_ARBITRUM_TREASURY: {
    meaning: 'The address the Arbitrum yield skim is paid to, as `SVC_BASE_TREASURY`.',
  },
  SVC_VENUE_IDS: {
    meaning:
      'On-chain ids per venue, JSON `{"morpho": {"vault": "0x…"}}`. A venue missing an id it needs is listed with `ready: false` and `missingIds`. Unknown venues or id names are refused at start. The id names per venue: [venues/evm.md](venues/evm.md), [venues/solana.md](venues/solana.md), [venues/sui.md](venues/sui.md); real mainnet ids: [profiles.md](profiles.md).',
  },
  SVC_PROFILE: {
    meaning:
      'A profile of real venue ids: `mainnet` (the checked-in `profiles/mainnet/`) or a path to a folder of `<venueId>.json` files. Its ids fill `SVC_VENUE_IDS`; an id set in `SVC_VENUE_IDS` wins. A file or id of the wrong format stops the service at start naming it. See [Profiles](profiles.md).',
  },
  SVC_APY_POOLS: {
    meaning:
      'APY pool id per venue at the yields source, JSON `{"morpho": "<pool id>"}`. A venue without one has `grossApyBps: null`, reason `source_not_configured`.',
  },
  SVC_APY_BASE_URL: { meaning: 'DefiLlama-compatible yields endpoint (`GET /pools`).' },
  SVC_APY_TIMEOUT_MS: { meaning: 'Bound on each call to the yields source.' },
  SVC_APY_MAX_AGE_SECONDS: {
    meaning: 'Readings older than this are served as null (`stale`).',
  },
  SVC_APY_MEAN_MIN_SAMPLES: {
    meaning: 'Fewer ok samples than this in 30 days → `apyMean30dBps: null`.',
  },
  SVC_RPC_TIMEOUT_MS: {
    meaning:
      'Upper bound on every RPC call; a silent RPC gives N/A (`rpc_timeout`), never a number.',
  },
  SVC_SUI_RPC_URL: { meaning: RPC_URL },
  SVC_SUI_NETWORK: { meaning: '`mainnet`, `testnet`, `devnet` or `localnet`.' },
  SVC_SOLANA_NETWORK: {
    meaning:
      '`mainnet-beta`, `testnet`, `devnet` or `localnet`: the cluster `/svc/packages` names (`pnpm localnet` sets `localnet`).',
  },
  SVC_SOLANA_RPC_URL: { meaning: RPC_URL },
  SVC_BASE_RPC_URL: { meaning: RPC_URL },
  SVC_ARBITRUM_RPC_URL: { meaning: RPC_URL },
  SVC_SUI_USDC_COIN_TYPE: { meaning: LOCAL_USDC },
  SVC_SOLANA_USDC_MINT: { meaning: LOCAL_USDC },
  SVC_BASE_USDC_ADDRESS: { meaning: LOCAL_USDC },
  SVC_ARBITRUM_USDC_ADDRESS: { meaning: LOCAL_USDC },
  SVC_API_KEY_SECRET: {
    meaning:
      'Server secret API keys are hashed with (HMAC-SHA256), at least 32 characters. Required in production.',
    default: 'development secret',
  },
  SVC_WEBHOOK_KEY_SECRET: {
    meaning:
      'Seals webhook signing keys at rest (AES-256-GCM, key by HKDF). The keeper must use the same value.',
    default: 'the API key secret',
  },
  SVC_WEBHOOK_ALLOW_PRIVATE_URLS: {
    meaning:
      'Allow private, loopback and local webhook targets (a receiver on 127.0.0.1). Refused at start in production.',
  },
  SVC_WEBHOOK_ALLOWED_PORTS: {
    meaning: 'Ports public webhook targets may use besides 443 and 80, comma-separated.',
  },
  SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS: {
    meaning:
      'After a key rotation, how long the previous key keeps signing next to the new one (0 … 604800).',
  },
  SVC_WEBHOOK_TIMEOUT_MS: { meaning: 'How long a receiver has to answer one delivery attempt.' },
  SVC_ZEROX_BASE_URL: {
    meaning:
      "0x Swap API v2 quote source of EVM swap plans and of gas-sponsor top-ups (`https://api.0x.org`; the bed's fake under `pnpm localnet`). Unset: both are blocked `quote_source_not_configured`.",
  },
  SVC_ZEROX_API_KEY: {
    meaning: "Sent as `0x-api-key` (0x requires one); never logged, never in a blocker's detail.",
  },
  SVC_ZEROX_TIMEOUT_MS: { meaning: '0x quote request bound (slow → blocked `quote_timeout`).' },
  SVC_SWAP_QUOTE_TTL_SECONDS: {
    meaning:
      'How long a quote is honoured (`expiresAt`: 0x quotes carry no expiry of their own), for every swap source.',
  },
  SVC_BASE_SWAP_FEE_RECIPIENT: { meaning: EVM_SWAP_FEE_RECIPIENT },
  SVC_ARBITRUM_SWAP_FEE_RECIPIENT: { meaning: EVM_SWAP_FEE_RECIPIENT },
  SVC_BASE_SWAP_TOKENS: { meaning: EVM_SWAP_TOKENS, default: 'USDC, WETH' },
  SVC_ARBITRUM_SWAP_TOKENS: { meaning: EVM_SWAP_TOKENS, default: 'USDC, WETH' },
  SVC_JUPITER_BASE_URL: {
    meaning:
      "Jupiter Swap API v1 quote source of Solana swap plans and of Solana gas-sponsor top-ups (`https://api.jup.ag/swap/v1`, or the keyless `https://lite-api.jup.ag/swap/v1`; the bed's fake in tests). Unset: `/svc/jupiter/plan` and Solana top-ups are blocked `quote_source_not_configured`.",
  },
  SVC_JUPITER_API_KEY: {
    meaning: "Sent as `x-api-key`; never logged, never in a blocker's detail.",
  },
  SVC_JUPITER_TIMEOUT_MS: {
    meaning:
      'Bound on the quote and swap-instructions exchange together (slow → blocked `quote_timeout`). The quote is honoured `SVC_SWAP_QUOTE_TTL_SECONDS`.',
  },
  SVC_JUPITER_PROGRAM_ID: {
    meaning:
      "The only program a quote's swap instruction may call (another → `quote_unavailable`); the receipt must show it called. Jupiter v6 by default; the bed's `cp_pool` program in tests.",
  },
  SVC_SOLANA_SWAP_FEE_RECIPIENT: {
    meaning:
      "The wallet the service's swap fee and gas-sponsor fee are paid to on Solana (a `TransferChecked` of the input in the swap transaction; its token account is created if missing). Unset while `swapFeeBps` / `gasSponsorFeeBps` > 0: Solana swap / gas-sponsor plans are blocked, naming it.",
  },
  SVC_SOLANA_SWAP_TOKENS: {
    meaning:
      'Extra Solana swap tokens, `SYMBOL:mint:decimals[,…]` (base58 mints). USDC (`SVC_SOLANA_USDC_MINT`) and WSOL are always there.',
    default: 'USDC, WSOL',
  },
  SVC_CETUS_BASE_URL: {
    meaning:
      "Cetus aggregator quote source of Sui swap plans and of Sui gas-sponsor top-ups (`GET /find_routes`; `https://api-sui.cetus.zone/router_v3`, the bed's fake in tests). Unset: both are blocked `quote_source_not_configured`.",
  },
  SVC_CETUS_TIMEOUT_MS: {
    meaning:
      'Bound on each find-routes call (slow → blocked `quote_timeout`); quotes are honoured `SVC_SWAP_QUOTE_TTL_SECONDS`.',
  },
  SVC_CETUS_AGGREGATOR_PACKAGE_ID: {
    meaning:
      'For the configured `SVC_SUI_NETWORK`: the package whose `cetus::swap_*` and `router::check_coin_threshold` the Sui leg calls. Never taken from a quote answer; unset blocks Sui swaps.',
  },
  SVC_CETUS_GLOBAL_CONFIG_ID: {
    meaning:
      "Cetus' shared `GlobalConfig` for the configured `SVC_SUI_NETWORK`. Never taken from a quote answer; unset blocks Sui swaps.",
  },
  SVC_SUI_SWAP_FEE_RECIPIENT: {
    meaning:
      "Where the service's swap fee and gas-sponsor fee are paid on Sui (split off the input by the leg); unset blocks Sui swaps and top-ups that charge one.",
  },
  SVC_CCTP_ATTESTATION_URL: {
    meaning:
      "Circle's attestation service (Iris v2: `GET /v2/messages/{domain}?transactionHash=`, fee endpoint `GET /v2/burn/USDC/fees/{src}/{dst}`); mainnet `https://iris-api.circle.com`, the bed's fake in tests. Unset: every bridge lane is blocked `bridge_rail_not_configured`.",
  },
  SVC_CCTP_TIMEOUT_MS: {
    meaning:
      'Bound on each attestation-service call (slow or 5xx → fail-closed: blocked `bridge_rail_unavailable` on plan, 503 on delivery).',
  },
  SVC_CCTP_FEE_TTL_MS: {
    meaning:
      "How long a lane's CCTP fee schedule (both speeds) is kept before the next plan reads it again; `0` reads it for every plan. A plan's rail fee (its burn's `maxFee`) is at most this old: see [Bridges](bridges.md), attestation-service limits.",
  },
  SVC_CCTP_MAX_REQUESTS_PER_SECOND: {
    meaning:
      'Requests to the attestation service this process may start in any one second (fees and attestation reads together, 1–35). Circle blocks a client for 5 minutes past 35 per second: the default keeps the API and the keeper together at 30. With more processes, lower it so their sum stays under 35.',
  },
  SVC_CCTP_ATTESTATION_WINDOW_STANDARD_MS: {
    meaning:
      "How long after a standard burn settled its attestation may take before the keeper's `bridge-expiry` marks the bridge failed (`bridge.failed`; rescuable by the owner).",
  },
  SVC_CCTP_ATTESTATION_WINDOW_FAST_MS: {
    meaning: 'The same for a fast burn.',
  },
  SVC_BASE_CCTP_TOKEN_MESSENGER: { meaning: CCTP_EVM_CONTRACT },
  SVC_BASE_CCTP_MESSAGE_TRANSMITTER: { meaning: CCTP_EVM_CONTRACT },
  SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: { meaning: CCTP_EVM_CONTRACT },
  SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: { meaning: CCTP_EVM_CONTRACT },
  SVC_BASE_BRIDGE_FEE_RECIPIENT: { meaning: EVM_BRIDGE_FEE_RECIPIENT },
  SVC_ARBITRUM_BRIDGE_FEE_RECIPIENT: { meaning: EVM_BRIDGE_FEE_RECIPIENT },
  SVC_BRIDGE_FAILED_WATCH_MS: {
    meaning:
      "How often the keeper's bridge watch looks at a failed bridge (its mint may still come late; found, it credits once): only when its last look (migration 0038) is older than this, not every pass. An unreadable source is not a look. 1000 … 604800000.",
  },
  SVC_CCTP_MINT_LOOKBACK_BLOCKS: {
    meaning:
      "How many blocks back from the latest the keeper's bridge watch searches the destination for the transaction that received a message (`eth_getLogs` by nonce; on Sui, that many newest `MessageReceived` events). A mint older than that is credited when reported (`POST /svc/bridge/delivery`).",
  },
  SVC_BRIDGE_MIN_MICROS: {
    meaning: 'The smallest bridge the service prepares (below → 400 naming `body.amountMicros`).',
  },
  SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER: { meaning: CCTP_SOLANA_PROGRAM },
  SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER: { meaning: CCTP_SOLANA_PROGRAM },
  SVC_CCTP_SOLANA_USDC_MINT: {
    meaning: 'The mint CCTP burns and mints on Solana.',
    default: '`SVC_SOLANA_USDC_MINT`',
  },
  SVC_CCTP_SOLANA_FEE_RECIPIENT: {
    meaning:
      "TokenMessengerV2's fee recipient on Solana (every mint there pays the rail's fee to its USDC account); read it from the network's TokenMessenger account.",
  },
  SVC_SOLANA_BRIDGE_FEE_RECIPIENT: { meaning: NON_EVM_BRIDGE_FEE_RECIPIENT },
  SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_PACKAGE: { meaning: CCTP_SUI_OBJECT },
  SVC_CCTP_SUI_MESSAGE_TRANSMITTER_PACKAGE: { meaning: CCTP_SUI_OBJECT },
  SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_STATE: { meaning: CCTP_SUI_OBJECT },
  SVC_CCTP_SUI_MESSAGE_TRANSMITTER_STATE: { meaning: CCTP_SUI_OBJECT },
  SVC_CCTP_SUI_STABLECOIN_HANDLER_PACKAGE: { meaning: CCTP_SUI_OBJECT },
  SVC_CCTP_SUI_STABLECOIN_HANDLER_STATE: { meaning: CCTP_SUI_OBJECT },
  SVC_CCTP_SUI_USDC_TREASURY: { meaning: CCTP_SUI_OBJECT },
  SVC_SUI_BRIDGE_FEE_RECIPIENT: { meaning: NON_EVM_BRIDGE_FEE_RECIPIENT },
};
