-- The ledger schema as it is today, after every migration (last: 0071_canonical_evm_bytes_digest).
-- Generated from a migrated database by `npx -y pnpm@10 db:current-sql`; do not edit by hand.
-- Read it to see what is; change the schema with a new migration (see docs/ledger.md).

-- ================================================================================================
-- Enum types
-- ================================================================================================

CREATE TYPE "ApiKeyRole" AS ENUM ('owner', 'agent', 'keeper');

-- ================================================================================================
-- Tables
-- ================================================================================================

CREATE TABLE "api_keys" (
  "id" text NOT NULL,
  "key_hash" text NOT NULL,
  "prefix" text NOT NULL,
  "role" "ApiKeyRole" NOT NULL,
  "wallets" text[] NOT NULL DEFAULT '{}'::text[],
  "label" text,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "revoked_at" timestamp(3) with time zone,
  CONSTRAINT "api_keys_pkey" PRIMARY KEY (id),
  CONSTRAINT "api_keys_key_hash_key" UNIQUE (key_hash)
);

CREATE TABLE "apy_samples" (
  "id" bigint NOT NULL DEFAULT nextval('apy_samples_id_seq'::regclass),
  "venue_id" text NOT NULL,
  "source" text NOT NULL,
  "status" text NOT NULL,
  "apy_bps" integer,
  "apy_base_bps" integer,
  "apy_reward_bps" integer,
  "tvl_usd_micros" bigint,
  "reason" text,
  "observed_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "pool_facts" jsonb,
  CONSTRAINT "apy_samples_pkey" PRIMARY KEY (id),
  CONSTRAINT "apy_samples_venue_id_fkey" FOREIGN KEY (venue_id) REFERENCES venues(id) ON DELETE CASCADE,
  CONSTRAINT "apy_samples_check" CHECK ((status = 'ok'::text) = (apy_bps IS NOT NULL)),
  CONSTRAINT "apy_samples_check1" CHECK ((status = 'unavailable'::text) = (reason IS NOT NULL)),
  CONSTRAINT "apy_samples_status_check" CHECK (status = ANY ('{ok,unavailable}'::text[]))
);

CREATE TABLE "audit_events" (
  "id" bigint NOT NULL DEFAULT nextval('audit_events_id_seq'::regclass),
  "wallet" text NOT NULL,
  "at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "operation" text NOT NULL,
  "method" text NOT NULL,
  "path" text NOT NULL,
  "actor_role" text NOT NULL,
  "key_id" text,
  "request_id" text NOT NULL,
  "plan_id" text,
  "outcome" text NOT NULL,
  "status" integer NOT NULL,
  "error_code" text,
  CONSTRAINT "audit_events_pkey" PRIMARY KEY (id),
  CONSTRAINT "audit_events_actor_role_check" CHECK (actor_role = ANY ('{owner,agent,keeper,public}'::text[])),
  CONSTRAINT "audit_events_error_code_check" CHECK (length(error_code) <= 64),
  CONSTRAINT "audit_events_key_id_check" CHECK (length(key_id) <= 64),
  CONSTRAINT "audit_events_method_check" CHECK (method = ANY ('{POST,PUT,DELETE}'::text[])),
  CONSTRAINT "audit_events_operation_check" CHECK (operation ~ '^[A-Za-z][A-Za-z0-9]{0,63}$'::text),
  CONSTRAINT "audit_events_outcome_check" CHECK (outcome = ANY ('{ok,blocked,refused}'::text[])),
  CONSTRAINT "audit_events_path_check" CHECK (length(path) <= 256),
  CONSTRAINT "audit_events_plan_id_check" CHECK (length(plan_id) <= 128),
  CONSTRAINT "audit_events_request_id_check" CHECK (length(request_id) <= 128),
  CONSTRAINT "audit_events_status_check" CHECK (status >= 200 AND status <= 599)
);

CREATE TABLE "auto_pay_configs" (
  "wallet" text NOT NULL,
  "enabled" boolean NOT NULL,
  "percentage" smallint NOT NULL,
  "payees" jsonb NOT NULL,
  "trigger" text NOT NULL,
  "min_amount_micros" bigint NOT NULL,
  "max_per_payee_per_day_micros" bigint,
  "dust_micros" bigint NOT NULL,
  "emergency_pause" boolean NOT NULL,
  "updated_at" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "auto_pay_configs_pkey" PRIMARY KEY (wallet),
  CONSTRAINT "auto_pay_configs_dust_micros_check" CHECK (dust_micros >= 0),
  CONSTRAINT "auto_pay_configs_max_per_payee_per_day_micros_check" CHECK (max_per_payee_per_day_micros > 0),
  CONSTRAINT "auto_pay_configs_min_amount_micros_check" CHECK (min_amount_micros >= 0),
  CONSTRAINT "auto_pay_configs_payees_check" CHECK (jsonb_typeof(payees) = 'array'::text),
  CONSTRAINT "auto_pay_configs_percentage_check" CHECK (percentage >= 0 AND percentage <= 100),
  CONSTRAINT "auto_pay_configs_trigger_check" CHECK (trigger = ANY ('{after_harvest,manual,threshold}'::text[]))
);

CREATE TABLE "auto_pay_payouts" (
  "plan_id" text NOT NULL,
  "leg_index" integer NOT NULL,
  "wallet" text NOT NULL,
  "payee_id" text NOT NULL,
  "address" text NOT NULL,
  "weight_bps" integer NOT NULL,
  "amount_micros" bigint NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "auto_pay_payouts_pkey" PRIMARY KEY (plan_id, leg_index),
  CONSTRAINT "auto_pay_payouts_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES auto_pay_runs(plan_id),
  CONSTRAINT "auto_pay_payouts_plan_id_leg_index_fkey" FOREIGN KEY (plan_id, leg_index) REFERENCES plan_legs(plan_id, leg_index),
  CONSTRAINT "auto_pay_payouts_amount_micros_check" CHECK (amount_micros > 0),
  CONSTRAINT "auto_pay_payouts_weight_bps_check" CHECK (weight_bps >= 1 AND weight_bps <= 10000)
);

CREATE TABLE "auto_pay_runs" (
  "plan_id" text NOT NULL,
  "wallet" text NOT NULL,
  "chain" text NOT NULL,
  "opportunity_id" text NOT NULL,
  "amount_micros" bigint NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "auto_pay_runs_pkey" PRIMARY KEY (plan_id),
  CONSTRAINT "auto_pay_runs_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES plans(id),
  CONSTRAINT "auto_pay_runs_wallet_chain_opportunity_id_fkey" FOREIGN KEY (wallet, chain, opportunity_id) REFERENCES auto_pay_yield(wallet, chain, opportunity_id),
  CONSTRAINT "auto_pay_runs_amount_micros_check" CHECK (amount_micros > 0)
);

CREATE TABLE "auto_pay_yield" (
  "wallet" text NOT NULL,
  "chain" text NOT NULL,
  "opportunity_id" text NOT NULL,
  "accrued_centimicros" numeric(40,0) NOT NULL DEFAULT 0,
  "committed_micros" bigint NOT NULL DEFAULT 0,
  "updated_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "returned_micros" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "auto_pay_yield_pkey" PRIMARY KEY (wallet, chain, opportunity_id),
  CONSTRAINT "auto_pay_yield_accrued_centimicros_check" CHECK (accrued_centimicros >= 0::numeric),
  CONSTRAINT "auto_pay_yield_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "auto_pay_yield_committed_micros_check" CHECK (committed_micros >= 0),
  CONSTRAINT "auto_pay_yield_opportunity_id_check" CHECK (opportunity_id ~ '^svcop[0-9a-f]{24}$'::text),
  CONSTRAINT "auto_pay_yield_returned_micros_check" CHECK (returned_micros >= 0)
) WITH (fillfactor=80);

CREATE TABLE "autopilot_decisions" (
  "id" bigint NOT NULL DEFAULT nextval('autopilot_decisions_id_seq'::regclass),
  "wallet" text NOT NULL,
  "kind" text NOT NULL,
  "period" text,
  "chain" text NOT NULL,
  "outcome" text NOT NULL,
  "reason" text NOT NULL,
  "plan_id" text,
  "record" jsonb NOT NULL,
  "decided_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "autopilot_decisions_pkey" PRIMARY KEY (id),
  CONSTRAINT "autopilot_decisions_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES plans(id),
  CONSTRAINT "autopilot_decisions_chain_check" CHECK (chain = ANY ('{sui,solana}'::text[])),
  CONSTRAINT "autopilot_decisions_check" CHECK ((kind = 'tick'::text) = (period IS NOT NULL)),
  CONSTRAINT "autopilot_decisions_kind_check" CHECK (kind = ANY ('{tick,preview,decide}'::text[])),
  CONSTRAINT "autopilot_decisions_outcome_check" CHECK (outcome = ANY ('{hold,switch,blocked}'::text[])),
  CONSTRAINT "autopilot_decisions_reason_check" CHECK (reason ~ '^[a-z_]{1,64}$'::text)
);

CREATE TABLE "autopilot_policies" (
  "wallet" text NOT NULL,
  "chain" text NOT NULL,
  "enabled" boolean NOT NULL,
  "rebalance_min_delta_bps" integer NOT NULL DEFAULT 700,
  "cadence" text NOT NULL DEFAULT 'monthly'::text,
  "venue_allowlist" text[] NOT NULL DEFAULT '{}'::text[],
  "goal" text NOT NULL DEFAULT 'max_apy_30d'::text,
  "next_tick_at" timestamp(3) with time zone NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "autopilot_policies_pkey" PRIMARY KEY (wallet),
  CONSTRAINT "autopilot_policies_cadence_check" CHECK (cadence = ANY ('{daily,weekly,monthly}'::text[])),
  CONSTRAINT "autopilot_policies_chain_check" CHECK (chain = ANY ('{sui,solana}'::text[])),
  CONSTRAINT "autopilot_policies_goal_check" CHECK (goal = 'max_apy_30d'::text),
  CONSTRAINT "autopilot_policies_rebalance_min_delta_bps_check" CHECK (rebalance_min_delta_bps >= 0 AND rebalance_min_delta_bps <= 10000),
  CONSTRAINT "autopilot_policies_venue_allowlist_check" CHECK (cardinality(venue_allowlist) <= 50)
);

CREATE TABLE "bridge_transfers" (
  "plan_id" text NOT NULL,
  "rail" text NOT NULL,
  "speed" text NOT NULL,
  "source_chain" text NOT NULL,
  "dest_chain" text NOT NULL,
  "owner" text NOT NULL,
  "recipient" text NOT NULL,
  "burn_micros" bigint NOT NULL,
  "max_rail_fee_micros" bigint NOT NULL,
  "min_received_micros" bigint NOT NULL,
  "message_nonce" text,
  "mint_tx_id" text,
  "delivered_micros" bigint,
  "delivered_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "failed_at" timestamp(3) with time zone,
  "failure_reason" text,
  "service_fee_micros" bigint NOT NULL DEFAULT 0,
  "fee_recipient" text,
  "failed_watched_at" timestamp(3) with time zone,
  "mint_simulation" jsonb,
  CONSTRAINT "bridge_transfers_pkey" PRIMARY KEY (plan_id),
  CONSTRAINT "bridge_transfers_mint_tx_id_key" UNIQUE (mint_tx_id),
  CONSTRAINT "bridge_transfers_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES plans(id) ON DELETE CASCADE,
  CONSTRAINT "bridge_transfers_burn_micros_check" CHECK (burn_micros > 0),
  CONSTRAINT "bridge_transfers_check" CHECK ((dest_chain = ANY ('{sui,solana,base,arbitrum}'::text[])) AND dest_chain <> source_chain),
  CONSTRAINT "bridge_transfers_check1" CHECK (max_rail_fee_micros >= 0 AND max_rail_fee_micros < burn_micros),
  CONSTRAINT "bridge_transfers_check2" CHECK ((mint_tx_id IS NULL) = (delivered_at IS NULL) AND (mint_tx_id IS NULL) = (delivered_micros IS NULL)),
  CONSTRAINT "bridge_transfers_delivered_micros_check" CHECK (delivered_micros > 0),
  CONSTRAINT "bridge_transfers_failure_check" CHECK ((failed_at IS NULL) = (failure_reason IS NULL)),
  CONSTRAINT "bridge_transfers_fee_recipient_check" CHECK (service_fee_micros = 0 OR fee_recipient IS NOT NULL),
  CONSTRAINT "bridge_transfers_min_received_micros_check" CHECK (min_received_micros > 0),
  CONSTRAINT "bridge_transfers_mint_simulation_check" CHECK (mint_simulation IS NULL OR jsonb_typeof(mint_simulation) = 'object'::text),
  CONSTRAINT "bridge_transfers_rail_check" CHECK (rail = 'cctp'::text),
  CONSTRAINT "bridge_transfers_service_fee_micros_check" CHECK (service_fee_micros >= 0),
  CONSTRAINT "bridge_transfers_source_chain_check" CHECK (source_chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "bridge_transfers_speed_check" CHECK (speed = ANY ('{standard,fast}'::text[]))
) WITH (fillfactor=90);

CREATE TABLE "harvests" (
  "id" text NOT NULL,
  "wallet" text NOT NULL,
  "chain" text NOT NULL,
  "opportunity_id" text NOT NULL,
  "venue_id" text NOT NULL,
  "entry_id" bigint NOT NULL,
  "value_micros" bigint NOT NULL,
  "value_as_of" timestamp(3) with time zone NOT NULL,
  "basis_micros" bigint NOT NULL,
  "gross_micros" bigint NOT NULL,
  "protocol_fee_micros" bigint NOT NULL,
  "profit_fee_micros" bigint NOT NULL,
  "net_micros" bigint NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "shares" numeric(78,0),
  "untracked_micros" bigint,
  CONSTRAINT "harvests_pkey" PRIMARY KEY (id),
  CONSTRAINT "harvests_entry_id_key" UNIQUE (entry_id),
  CONSTRAINT "harvests_entry_id_fkey" FOREIGN KEY (entry_id) REFERENCES journal_entries(id),
  CONSTRAINT "harvests_venue_id_fkey" FOREIGN KEY (venue_id) REFERENCES venues(id),
  CONSTRAINT "harvests_basis_micros_check" CHECK (basis_micros >= 0),
  CONSTRAINT "harvests_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "harvests_check" CHECK (gross_micros = (value_micros - basis_micros)),
  CONSTRAINT "harvests_check1" CHECK ((protocol_fee_micros + profit_fee_micros + net_micros) = gross_micros),
  CONSTRAINT "harvests_gross_micros_check" CHECK (gross_micros > 0),
  CONSTRAINT "harvests_id_check" CHECK (id ~ '^hvst_[0-9a-f]{32}$'::text),
  CONSTRAINT "harvests_net_micros_check" CHECK (net_micros > 0),
  CONSTRAINT "harvests_opportunity_id_check" CHECK (opportunity_id ~ '^svcop[0-9a-f]{24}$'::text),
  CONSTRAINT "harvests_profit_fee_micros_check" CHECK (profit_fee_micros >= 0),
  CONSTRAINT "harvests_protocol_fee_micros_check" CHECK (protocol_fee_micros >= 0),
  CONSTRAINT "harvests_untracked_micros_check" CHECK (untracked_micros >= 0),
  CONSTRAINT "harvests_value_micros_check" CHECK (value_micros > 0)
);

CREATE TABLE "idempotency_keys" (
  "scope" text NOT NULL,
  "wallet" text,
  "operation" text NOT NULL,
  "key" text NOT NULL,
  "request_hash" text NOT NULL,
  "state" text NOT NULL,
  "claim_token" text NOT NULL,
  "locked_until" timestamp(3) with time zone NOT NULL,
  "response_status" integer,
  "response_headers" jsonb,
  "response_body" bytea,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "completed_at" timestamp(3) with time zone,
  CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY (scope, operation, key),
  CONSTRAINT "idempotency_keys_check" CHECK ((state = 'completed'::text) = (response_status IS NOT NULL AND response_headers IS NOT NULL AND response_body IS NOT NULL AND completed_at IS NOT NULL)),
  CONSTRAINT "idempotency_keys_key_check" CHECK (key ~ '^[\x20-\x7e]{1,255}$'::text),
  CONSTRAINT "idempotency_keys_request_hash_check" CHECK (request_hash ~ '^[0-9a-f]{64}$'::text),
  CONSTRAINT "idempotency_keys_response_status_check" CHECK (response_status >= 100 AND response_status <= 499),
  CONSTRAINT "idempotency_keys_state_check" CHECK (state = ANY ('{in_progress,completed}'::text[]))
) WITH (fillfactor=85);

CREATE TABLE "idempotent_writes" (
  "scope" text NOT NULL,
  "operation" text NOT NULL,
  "key" text NOT NULL,
  "request_hash" text NOT NULL,
  "response_status" integer NOT NULL,
  "response_headers" jsonb NOT NULL,
  "response_body" text NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "idempotent_writes_pkey" PRIMARY KEY (scope, operation, key),
  CONSTRAINT "idempotent_writes_key_check" CHECK (key ~ '^[\x20-\x7e]{1,255}$'::text),
  CONSTRAINT "idempotent_writes_request_hash_check" CHECK (request_hash ~ '^[0-9a-f]{64}$'::text),
  CONSTRAINT "idempotent_writes_response_status_check" CHECK (response_status >= 200 AND response_status <= 299)
);

CREATE TABLE "journal_entries" (
  "id" bigint NOT NULL DEFAULT nextval('journal_entries_id_seq'::regclass),
  "kind" text NOT NULL,
  "dedupe_key" text,
  "plan_id" text,
  "leg_index" integer,
  "tx_id" text,
  "memo" text,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "journal_entries_pkey" PRIMARY KEY (id),
  CONSTRAINT "journal_entries_dedupe_key_key" UNIQUE (dedupe_key),
  CONSTRAINT "journal_entries_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES plans(id),
  CONSTRAINT "journal_entries_posted" TRIGGER DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE "ledger_accounts" (
  "id" bigint NOT NULL DEFAULT nextval('ledger_accounts_id_seq'::regclass),
  "kind" text NOT NULL,
  "wallet" text,
  "chain" text NOT NULL,
  "bucket" text NOT NULL,
  "balance_micros" bigint NOT NULL DEFAULT 0,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "asset" text NOT NULL DEFAULT 
CASE
    WHEN (strpos(bucket, '@'::text) > 0) THEN substr(bucket, (strpos(bucket, '@'::text) + 1))
    ELSE 'USDC'::text
END,
  CONSTRAINT "ledger_accounts_pkey" PRIMARY KEY (id),
  CONSTRAINT "ledger_accounts_wallet_chain_bucket_key" UNIQUE NULLS NOT DISTINCT (wallet, chain, bucket),
  CONSTRAINT "ledger_accounts_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum,all}'::text[])),
  CONSTRAINT "ledger_accounts_check" CHECK (bucket ~ '^(liquid|pending_in|pending_out|in_flight|staked:svcop[0-9a-f]{24})$'::text OR kind = 'system'::text AND (bucket = ANY ('{external,fees:protocol}'::text[])) OR kind = 'system'::text AND bucket = 'fees:receivable'::text AND chain <> 'all'::text OR kind = 'wallet'::text AND bucket = 'auto_pay'::text OR bucket !~ '@USDC$'::text AND (kind = 'wallet'::text AND bucket ~ '^liquid@[0-9A-Za-z:_]{1,200}$'::text OR kind = 'system'::text AND bucket ~ '^(external|fees:protocol)@[0-9A-Za-z:_]{1,200}$'::text)),
  CONSTRAINT "ledger_accounts_check1" CHECK ((kind = 'wallet'::text) = (wallet IS NOT NULL)),
  CONSTRAINT "ledger_accounts_check2" CHECK (kind = 'system'::text OR chain <> 'all'::text),
  CONSTRAINT "ledger_accounts_check3" CHECK (kind = 'system'::text OR balance_micros >= 0),
  CONSTRAINT "ledger_accounts_kind_check" CHECK (kind = ANY ('{wallet,system}'::text[]))
) WITH (fillfactor=80);

CREATE TABLE "ledger_balance_shards" (
  "account_id" bigint NOT NULL,
  "shard" integer NOT NULL,
  "balance_micros" bigint NOT NULL,
  CONSTRAINT "ledger_balance_shards_pkey" PRIMARY KEY (account_id, shard),
  CONSTRAINT "ledger_balance_shards_account_id_fkey" FOREIGN KEY (account_id) REFERENCES ledger_accounts(id),
  CONSTRAINT "ledger_balance_shards_shard_check" CHECK (shard >= 0)
) WITH (fillfactor=50);

CREATE TABLE "outbox_events" (
  "id" text NOT NULL,
  "seq" bigint NOT NULL DEFAULT nextval('outbox_events_seq_seq'::regclass),
  "type" text NOT NULL,
  "wallet" text,
  "payload" jsonb NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "relayed_at" timestamp(3) with time zone,
  CONSTRAINT "outbox_events_pkey" PRIMARY KEY (id),
  CONSTRAINT "outbox_events_seq_key" UNIQUE (seq),
  CONSTRAINT "outbox_events_id_check" CHECK (id ~ '^evt_[0-9a-f]{32}$'::text),
  CONSTRAINT "outbox_events_type_check" CHECK (type = ANY ('{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid,plan.divergence,plan.simulated}'::text[]))
) WITH (fillfactor=90);

CREATE TABLE "plan_divergences" (
  "plan_id" text NOT NULL,
  "leg_index" integer NOT NULL,
  "tx_id" text NOT NULL,
  "simulation_digest" text NOT NULL,
  "changes" jsonb NOT NULL,
  "recorded_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "plan_divergences_pkey" PRIMARY KEY (plan_id, leg_index, tx_id),
  CONSTRAINT "plan_divergences_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES plans(id) ON DELETE CASCADE,
  CONSTRAINT "plan_divergences_changes_check" CHECK (jsonb_typeof(changes) = 'array'::text),
  CONSTRAINT "plan_divergences_simulation_digest_check" CHECK (simulation_digest ~ '^sha256:[0-9a-f]{64}$'::text)
);

CREATE TABLE "plan_legs" (
  "plan_id" text NOT NULL,
  "leg_index" integer NOT NULL,
  "action" text NOT NULL,
  "summary" text NOT NULL,
  "amount_micros" bigint NOT NULL,
  "settles" boolean NOT NULL,
  "payload" jsonb NOT NULL,
  "status" text NOT NULL DEFAULT 'unsigned'::text,
  "tx_id" text,
  "settled_amount_micros" bigint,
  "failure_reason" text,
  "updated_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "effect" text NOT NULL DEFAULT 'none'::text,
  "venue_id" text,
  "settled_at" timestamp(3) with time zone,
  "shares" numeric(78,0),
  "min_settle_micros" bigint,
  "max_settle_micros" bigint,
  "review_reason" text,
  "released_at" timestamp(3) with time zone,
  "chain" text,
  "skim_micros" bigint,
  CONSTRAINT "plan_legs_pkey" PRIMARY KEY (plan_id, leg_index),
  CONSTRAINT "plan_legs_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES plans(id) ON DELETE CASCADE,
  CONSTRAINT "plan_legs_venue_id_fkey" FOREIGN KEY (venue_id) REFERENCES venues(id),
  CONSTRAINT "plan_legs_amount_micros_check" CHECK (amount_micros >= 0),
  CONSTRAINT "plan_legs_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "plan_legs_effect_check" CHECK (effect = ANY ('{none,fund_liquid,fund_staked,stake,unstake,exit_liquid,swap,rebalance_out,rebalance_in,unstake_yield,pay_out,bridge_burn,unwrap,bridge_fee,bridged_stake,skim,wrap}'::text[])),
  CONSTRAINT "plan_legs_leg_index_check" CHECK (leg_index >= 0),
  CONSTRAINT "plan_legs_max_settle_micros_check" CHECK (max_settle_micros >= 0),
  CONSTRAINT "plan_legs_min_settle_micros_check" CHECK (min_settle_micros >= 0),
  CONSTRAINT "plan_legs_released_shape" CHECK ((status <> ALL ('{expired,cancelled}'::text[])) OR released_at IS NOT NULL),
  CONSTRAINT "plan_legs_settled_shape" CHECK ((status = 'confirmed'::text) = (settled_amount_micros IS NOT NULL AND tx_id IS NOT NULL)),
  CONSTRAINT "plan_legs_shares_check" CHECK (shares >= 0::numeric),
  CONSTRAINT "plan_legs_skim_micros_check" CHECK (skim_micros >= 0),
  CONSTRAINT "plan_legs_status_check" CHECK (status = ANY ('{unsigned,submitted,confirmed,failed,expired,cancelled}'::text[])),
  CONSTRAINT "plan_legs_reservation_released" TRIGGER DEFERRABLE INITIALLY DEFERRED
) WITH (fillfactor=85);

CREATE TABLE "plan_simulations" (
  "plan_id" text NOT NULL,
  "status" text NOT NULL,
  "digest" text,
  "document" jsonb NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "deferred_roles" jsonb,
  CONSTRAINT "plan_simulations_pkey" PRIMARY KEY (plan_id),
  CONSTRAINT "plan_simulations_plan_id_fkey" FOREIGN KEY (plan_id) REFERENCES plans(id) ON DELETE CASCADE,
  CONSTRAINT "plan_simulations_check" CHECK ((status = 'simulated'::text) = (digest IS NOT NULL)),
  CONSTRAINT "plan_simulations_deferred_roles_check" CHECK (deferred_roles IS NULL OR jsonb_typeof(deferred_roles) = 'object'::text),
  CONSTRAINT "plan_simulations_digest_check" CHECK (digest ~ '^sha256:[0-9a-f]{64}$'::text),
  CONSTRAINT "plan_simulations_status_check" CHECK (status = ANY ('{simulated,unavailable}'::text[]))
);

CREATE TABLE "plans" (
  "id" text NOT NULL,
  "kind" text NOT NULL,
  "status" text NOT NULL,
  "chain" text NOT NULL,
  "venue_id" text,
  "owner" text,
  "amount_micros" bigint NOT NULL,
  "fee_micros" bigint NOT NULL,
  "request" jsonb NOT NULL,
  "blockers" jsonb NOT NULL DEFAULT '[]'::jsonb,
  "submitted" boolean NOT NULL DEFAULT false,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "wallet" text,
  "swap" jsonb,
  CONSTRAINT "plans_pkey" PRIMARY KEY (id),
  CONSTRAINT "plans_venue_id_fkey" FOREIGN KEY (venue_id) REFERENCES venues(id),
  CONSTRAINT "plans_amount_micros_check" CHECK (amount_micros > 0 OR kind = 'gas_sponsor'::text AND amount_micros = 0),
  CONSTRAINT "plans_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "plans_check" CHECK ((status = 'blocked'::text) = (jsonb_array_length(blockers) > 0)),
  CONSTRAINT "plans_fee_micros_check" CHECK (fee_micros >= 0),
  CONSTRAINT "plans_id_check" CHECK (id ~ '^plan_[0-9a-f]{32}$'::text),
  CONSTRAINT "plans_kind_check" CHECK (kind = ANY ('{deposit,withdraw,route,exit,swap,rebalance,auto_pay,gas_sponsor,bridge}'::text[])),
  CONSTRAINT "plans_status_check" CHECK (status = ANY ('{prepared,blocked}'::text[])),
  CONSTRAINT "plans_swap_shape" CHECK ((kind = 'swap'::text) = (swap IS NOT NULL) OR kind = 'gas_sponsor'::text OR (kind = ANY ('{route,deposit}'::text[])) AND swap IS NOT NULL)
);

CREATE TABLE "positions" (
  "wallet" text NOT NULL,
  "chain" text NOT NULL,
  "opportunity_id" text NOT NULL,
  "venue_id" text NOT NULL,
  "shares" numeric(78,0) NOT NULL DEFAULT 0,
  "shares_known" boolean NOT NULL DEFAULT true,
  "mark_micros" bigint NOT NULL DEFAULT 0,
  "fees_retained_micros" bigint NOT NULL DEFAULT 0,
  "version" bigint NOT NULL DEFAULT 0,
  "updated_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "positions_pkey" PRIMARY KEY (wallet, chain, opportunity_id),
  CONSTRAINT "positions_venue_id_fkey" FOREIGN KEY (venue_id) REFERENCES venues(id),
  CONSTRAINT "positions_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "positions_check" CHECK (fees_retained_micros <= mark_micros),
  CONSTRAINT "positions_fees_retained_micros_check" CHECK (fees_retained_micros >= 0),
  CONSTRAINT "positions_mark_micros_check" CHECK (mark_micros >= 0),
  CONSTRAINT "positions_opportunity_id_check" CHECK (opportunity_id ~ '^svcop[0-9a-f]{24}$'::text),
  CONSTRAINT "positions_shares_check" CHECK (shares >= 0::numeric)
) WITH (fillfactor=80);

CREATE TABLE "postings" (
  "id" bigint NOT NULL DEFAULT nextval('postings_id_seq'::regclass),
  "entry_id" bigint NOT NULL,
  "account_id" bigint NOT NULL,
  "amount_micros" bigint NOT NULL,
  CONSTRAINT "postings_pkey" PRIMARY KEY (id),
  CONSTRAINT "postings_account_id_fkey" FOREIGN KEY (account_id) REFERENCES ledger_accounts(id),
  CONSTRAINT "postings_entry_id_fkey" FOREIGN KEY (entry_id) REFERENCES journal_entries(id),
  CONSTRAINT "postings_amount_micros_check" CHECK (amount_micros <> 0),
  CONSTRAINT "postings_balanced" TRIGGER DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE "reconciliation_drifts" (
  "id" bigint NOT NULL DEFAULT nextval('reconciliation_drifts_id_seq'::regclass),
  "run_id" text NOT NULL,
  "wallet" text NOT NULL,
  "chain" text NOT NULL,
  "opportunity_id" text,
  "venue_id" text,
  "kind" text NOT NULL,
  "books_micros" bigint NOT NULL,
  "chain_micros" bigint NOT NULL,
  "drift_micros" bigint NOT NULL,
  "above_threshold" boolean NOT NULL,
  "cause" text NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "reconciliation_drifts_pkey" PRIMARY KEY (id),
  CONSTRAINT "reconciliation_drifts_run_id_fkey" FOREIGN KEY (run_id) REFERENCES reconciliation_runs(id) ON DELETE CASCADE,
  CONSTRAINT "reconciliation_drifts_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "reconciliation_drifts_drift_micros_check" CHECK (drift_micros > 0),
  CONSTRAINT "reconciliation_drifts_kind_check" CHECK (kind = ANY ('{untracked,shares_missing,value_below_books,reservation_without_leg,wallet_below_books,shares_unknown,in_flight_without_bridge,auto_pay_without_payout,staked_without_position,skim_receivable,treasury_below_books}'::text[]))
);

CREATE TABLE "reconciliation_runs" (
  "id" text NOT NULL,
  "trigger" text NOT NULL,
  "threshold_micros" bigint NOT NULL,
  "started_at" timestamp(3) with time zone NOT NULL,
  "finished_at" timestamp(3) with time zone,
  "positions" integer NOT NULL DEFAULT 0,
  "unavailable" integer NOT NULL DEFAULT 0,
  "drifts" integer NOT NULL DEFAULT 0,
  "above_threshold" integer NOT NULL DEFAULT 0,
  "drift_micros" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "reconciliation_runs_pkey" PRIMARY KEY (id),
  CONSTRAINT "reconciliation_runs_drift_micros_check" CHECK (drift_micros >= 0),
  CONSTRAINT "reconciliation_runs_id_check" CHECK (id ~ '^recon_[0-9a-f]{32}$'::text),
  CONSTRAINT "reconciliation_runs_threshold_micros_check" CHECK (threshold_micros >= 0),
  CONSTRAINT "reconciliation_runs_trigger_check" CHECK (trigger = ANY ('{schedule,manual,cli}'::text[]))
);

CREATE TABLE "venue_chain_reads" (
  "venue_id" text NOT NULL,
  "facts" jsonb NOT NULL,
  "observed_at" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "venue_chain_reads_pkey" PRIMARY KEY (venue_id),
  CONSTRAINT "venue_chain_reads_venue_id_fkey" FOREIGN KEY (venue_id) REFERENCES venues(id) ON DELETE CASCADE
);

CREATE TABLE "venues" (
  "id" text NOT NULL,
  "opportunity_id" text NOT NULL,
  "protocol" text NOT NULL,
  "chain" text NOT NULL,
  "asset" text NOT NULL,
  "readiness" text NOT NULL,
  "standard" text NOT NULL,
  "wave" integer NOT NULL,
  "priority" integer NOT NULL,
  "actions" text[] NOT NULL,
  "required_ids" text[] NOT NULL,
  "min_deposit_micros" bigint NOT NULL,
  "catalog_version" integer NOT NULL,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "venues_pkey" PRIMARY KEY (id),
  CONSTRAINT "venues_opportunity_id_key" UNIQUE (opportunity_id),
  CONSTRAINT "venues_chain_check" CHECK (chain = ANY ('{sui,solana,base,arbitrum}'::text[])),
  CONSTRAINT "venues_id_check" CHECK (id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'::text AND id !~~ 'form-%'::text),
  CONSTRAINT "venues_min_deposit_micros_check" CHECK (min_deposit_micros >= 0),
  CONSTRAINT "venues_opportunity_id_check" CHECK (opportunity_id ~ '^svcop[0-9a-f]{24}$'::text),
  CONSTRAINT "venues_readiness_check" CHECK (readiness = ANY ('{ready,listed,planned}'::text[])),
  CONSTRAINT "venues_wave_check" CHECK (wave >= 1)
);

CREATE TABLE "wallet_guardrails" (
  "wallet" text NOT NULL,
  "allowed_chains" text[],
  "venue_allowlist" text[],
  "max_allocation_bps" jsonb NOT NULL DEFAULT '{}'::jsonb,
  "max_per_opportunity_micros" bigint,
  "min_net_apy_bps" integer,
  "updated_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "wallet_guardrails_pkey" PRIMARY KEY (wallet),
  CONSTRAINT "wallet_guardrails_allowed_chains_check" CHECK (allowed_chains IS NULL OR allowed_chains <@ '{sui,solana,base,arbitrum}'::text[]),
  CONSTRAINT "wallet_guardrails_max_allocation_bps_check" CHECK (jsonb_typeof(max_allocation_bps) = 'object'::text),
  CONSTRAINT "wallet_guardrails_max_per_opportunity_micros_check" CHECK (max_per_opportunity_micros > 0),
  CONSTRAINT "wallet_guardrails_min_net_apy_bps_check" CHECK (min_net_apy_bps >= 0 AND min_net_apy_bps <= 10000),
  CONSTRAINT "wallet_guardrails_venue_allowlist_check" CHECK (cardinality(venue_allowlist) <= 64)
);

CREATE TABLE "wallet_settings" (
  "wallet" text NOT NULL,
  "auto_yield_enabled" boolean NOT NULL DEFAULT false,
  "auto_yield_venue_id" text,
  "updated_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "auto_yield_max_stake_micros" bigint,
  CONSTRAINT "wallet_settings_pkey" PRIMARY KEY (wallet),
  CONSTRAINT "wallet_settings_auto_yield_venue_id_fkey" FOREIGN KEY (auto_yield_venue_id) REFERENCES venues(id),
  CONSTRAINT "wallet_settings_auto_yield_max_stake_micros_check" CHECK (auto_yield_max_stake_micros IS NULL OR auto_yield_max_stake_micros > 0)
);

CREATE TABLE "webhook_attempts" (
  "delivery_id" text NOT NULL,
  "attempt" integer NOT NULL,
  "started_at" timestamp(3) with time zone NOT NULL,
  "http_status" integer,
  "latency_ms" integer NOT NULL,
  "error" text,
  CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY (delivery_id, attempt),
  CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries(id),
  CONSTRAINT "webhook_attempts_attempt_check" CHECK (attempt >= 1),
  CONSTRAINT "webhook_attempts_latency_ms_check" CHECK (latency_ms >= 0)
);

CREATE TABLE "webhook_deliveries" (
  "id" text NOT NULL,
  "seq" bigint NOT NULL DEFAULT nextval('webhook_deliveries_seq_seq'::regclass),
  "event_id" text NOT NULL,
  "subscription_id" text NOT NULL,
  "status" text NOT NULL DEFAULT 'pending'::text,
  "attempts" integer NOT NULL DEFAULT 0,
  "next_attempt_at" timestamp(3) with time zone NOT NULL,
  "claim_token" text,
  "locked_until" timestamp(3) with time zone,
  "last_status" integer,
  "last_error" text,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "delivered_at" timestamp(3) with time zone,
  CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY (id),
  CONSTRAINT "webhook_deliveries_event_id_subscription_id_key" UNIQUE (event_id, subscription_id),
  CONSTRAINT "webhook_deliveries_seq_key" UNIQUE (seq),
  CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY (event_id) REFERENCES outbox_events(id),
  CONSTRAINT "webhook_deliveries_subscription_id_fkey" FOREIGN KEY (subscription_id) REFERENCES webhook_subscriptions(id),
  CONSTRAINT "webhook_deliveries_attempts_check" CHECK (attempts >= 0),
  CONSTRAINT "webhook_deliveries_check" CHECK ((claim_token IS NULL) = (locked_until IS NULL)),
  CONSTRAINT "webhook_deliveries_check1" CHECK ((status = 'delivered'::text) = (delivered_at IS NOT NULL)),
  CONSTRAINT "webhook_deliveries_id_check" CHECK (id ~ '^dlv_[0-9a-f]{32}$'::text),
  CONSTRAINT "webhook_deliveries_status_check" CHECK (status = ANY ('{pending,delivered,failed}'::text[]))
) WITH (fillfactor=80);

CREATE TABLE "webhook_subscriptions" (
  "id" text NOT NULL,
  "owner_key_id" text NOT NULL,
  "wallets" text[] NOT NULL,
  "url" text NOT NULL,
  "event_types" text[] NOT NULL,
  "description" text,
  "key_sealed" text NOT NULL,
  "previous_key_sealed" text,
  "previous_key_expires_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
  "rotated_at" timestamp(3) with time zone,
  "deleted_at" timestamp(3) with time zone,
  CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY (id),
  CONSTRAINT "webhook_subscriptions_check" CHECK ((previous_key_sealed IS NULL) = (previous_key_expires_at IS NULL)),
  CONSTRAINT "webhook_subscriptions_description_check" CHECK (length(description) <= 256),
  CONSTRAINT "webhook_subscriptions_event_types_check" CHECK (cardinality(event_types) >= 1 AND cardinality(event_types) <= 11 AND event_types <@ '{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid,plan.divergence,plan.simulated}'::text[]),
  CONSTRAINT "webhook_subscriptions_id_check" CHECK (id ~ '^whk_[0-9a-f]{32}$'::text),
  CONSTRAINT "webhook_subscriptions_url_check" CHECK (length(url) <= 2048)
);

-- ================================================================================================
-- Indexes (besides those of primary keys and unique constraints)
-- ================================================================================================

CREATE INDEX apy_samples_venue_observed ON public.apy_samples USING btree (venue_id, observed_at DESC);

CREATE INDEX audit_events_wallet_id ON public.audit_events USING btree (wallet, id DESC);

CREATE INDEX auto_pay_payouts_payee ON public.auto_pay_payouts USING btree (wallet, address, created_at);

CREATE UNIQUE INDEX autopilot_decisions_tick_period ON public.autopilot_decisions USING btree (wallet, period) WHERE (kind = 'tick'::text);

CREATE INDEX autopilot_decisions_wallet_id ON public.autopilot_decisions USING btree (wallet, id DESC);

CREATE INDEX autopilot_policies_due ON public.autopilot_policies USING btree (wallet COLLATE "C", next_tick_at) WHERE enabled;

CREATE INDEX bridge_transfers_open ON public.bridge_transfers USING btree (created_at) WHERE ((mint_tx_id IS NULL) AND (failed_at IS NULL));

CREATE INDEX bridge_transfers_undelivered_idx ON public.bridge_transfers USING btree (created_at, plan_id) WHERE (mint_tx_id IS NULL);

CREATE INDEX harvests_position ON public.harvests USING btree (wallet, chain, opportunity_id);

CREATE INDEX idempotency_keys_expiry ON public.idempotency_keys USING btree (COALESCE(completed_at, locked_until));

CREATE UNIQUE INDEX journal_entries_leg_released ON public.journal_entries USING btree (plan_id, leg_index) WHERE (kind ~~ '%.released'::text);

CREATE UNIQUE INDEX journal_entries_leg_settled ON public.journal_entries USING btree (plan_id, leg_index) WHERE (kind ~~ '%.settled'::text);

CREATE INDEX journal_entries_plan ON public.journal_entries USING btree (plan_id) WHERE (plan_id IS NOT NULL);

CREATE INDEX ledger_accounts_asset ON public.ledger_accounts USING btree (asset) WHERE (asset <> 'USDC'::text);

CREATE INDEX ledger_accounts_wallet ON public.ledger_accounts USING btree (wallet) WHERE (wallet IS NOT NULL);

CREATE INDEX outbox_events_unrelayed ON public.outbox_events USING btree (seq) WHERE (relayed_at IS NULL);

CREATE INDEX outbox_events_wallet ON public.outbox_events USING btree (wallet, seq);

CREATE INDEX plan_legs_open ON public.plan_legs USING btree (updated_at) WHERE ((status = ANY (ARRAY['unsigned'::text, 'submitted'::text])) AND (effect <> 'none'::text));

CREATE INDEX plan_legs_released_tx ON public.plan_legs USING btree (updated_at) WHERE ((status = ANY (ARRAY['expired'::text, 'cancelled'::text])) AND (tx_id IS NOT NULL));

CREATE UNIQUE INDEX plan_legs_tx ON public.plan_legs USING btree (tx_id) WHERE (tx_id IS NOT NULL);

CREATE INDEX plans_owner_created ON public.plans USING btree (owner, created_at DESC);

CREATE INDEX plans_prepared_created ON public.plans USING btree (created_at) WHERE (status = 'prepared'::text);

CREATE INDEX plans_wallet_created ON public.plans USING btree (wallet, created_at DESC, id) WHERE (wallet IS NOT NULL);

CREATE INDEX positions_keyset ON public.positions USING btree (wallet COLLATE "C", chain, opportunity_id);

CREATE INDEX postings_account ON public.postings USING btree (account_id);

CREATE INDEX postings_entry ON public.postings USING btree (entry_id);

CREATE INDEX reconciliation_drifts_run ON public.reconciliation_drifts USING btree (run_id, id);

CREATE INDEX reconciliation_drifts_wallet ON public.reconciliation_drifts USING btree (wallet, created_at DESC);

CREATE INDEX reconciliation_runs_started ON public.reconciliation_runs USING btree (started_at DESC);

CREATE INDEX webhook_deliveries_due ON public.webhook_deliveries USING btree (next_attempt_at) WHERE (status = 'pending'::text);

CREATE INDEX webhook_deliveries_subscription ON public.webhook_deliveries USING btree (subscription_id, seq);

CREATE INDEX webhook_deliveries_subscription_pending ON public.webhook_deliveries USING btree (subscription_id, seq) WHERE (status = 'pending'::text);

CREATE INDEX webhook_subscriptions_owner ON public.webhook_subscriptions USING btree (owner_key_id, created_at) WHERE (deleted_at IS NULL);

-- ================================================================================================
-- Views
-- ================================================================================================

CREATE VIEW "ledger_balances" AS
 SELECT a.id,
    a.kind,
    a.wallet,
    a.chain,
    a.bucket,
    a.asset,
        CASE
            WHEN a.kind = 'wallet'::text THEN a.balance_micros
            ELSE a.balance_micros + COALESCE(( SELECT sum(s.balance_micros) AS sum
               FROM ledger_balance_shards s
              WHERE s.account_id = a.id), 0::numeric)::bigint
        END AS balance_micros
   FROM ledger_accounts a;

CREATE VIEW "ledger_reservations" AS
 SELECT COALESCE(b.wallet, o.wallet) AS wallet,
    COALESCE(b.chain, o.chain) AS chain,
    COALESCE(b.bucket, o.bucket) AS bucket,
    COALESCE(b.balance_micros, 0::bigint) AS books_micros,
    COALESCE(o.open_micros, 0::numeric) AS open_micros
   FROM ( SELECT a.wallet,
            a.chain,
            a.bucket,
            a.balance_micros
           FROM ledger_accounts a
          WHERE a.kind = 'wallet'::text AND (a.bucket = ANY (ARRAY['pending_in'::text, 'pending_out'::text])) AND a.balance_micros <> 0) b
     FULL JOIN ( SELECT h.wallet,
            h.chain,
            h.bucket,
            sum(h.micros) AS open_micros
           FROM ( SELECT p.wallet,
                    p.chain,
                        CASE
                            WHEN l.effect = 'exit_liquid'::text THEN 'pending_out'::text
                            ELSE 'pending_in'::text
                        END AS bucket,
                    l.amount_micros AS micros
                   FROM plan_legs l
                     JOIN plans p ON p.id = l.plan_id
                  WHERE (l.status = ANY (ARRAY['unsigned'::text, 'submitted'::text])) AND p.status = 'prepared'::text AND (l.effect = ANY (ARRAY['fund_liquid'::text, 'fund_staked'::text, 'exit_liquid'::text]))
                UNION ALL
                 SELECT p.wallet,
                    p.chain,
                    'pending_in'::text,
                    po.amount_micros
                   FROM plan_legs l
                     JOIN plans p ON p.id = l.plan_id
                     JOIN journal_entries e ON e.plan_id = p.id
                     JOIN postings po ON po.entry_id = e.id
                     JOIN ledger_accounts a ON a.id = po.account_id AND a.wallet = p.wallet AND a.chain = p.chain AND a.bucket = 'pending_in'::text
                  WHERE l.effect = 'rebalance_in'::text AND (l.status = ANY (ARRAY['unsigned'::text, 'submitted'::text])) AND p.status = 'prepared'::text) h
          GROUP BY h.wallet, h.chain, h.bucket
         HAVING sum(h.micros) <> 0::numeric) o ON o.wallet = b.wallet AND o.chain = b.chain AND o.bucket = b.bucket;

-- ================================================================================================
-- Functions
-- ================================================================================================

-- last defined by migration 0023_auto_pay
CREATE OR REPLACE FUNCTION public.auto_pay_accrue()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "auto_pay_yield" AS y ("wallet", "chain", "opportunity_id",
                                     "accrued_centimicros", "updated_at")
  SELECT NEW."wallet", NEW."chain", NEW."opportunity_id",
         NEW."net_micros"::NUMERIC * c."percentage", NEW."created_at"
  FROM "auto_pay_configs" c
  WHERE c."wallet" = NEW."wallet" AND c."enabled" AND c."percentage" > 0
  ON CONFLICT ("wallet", "chain", "opportunity_id") DO UPDATE
    SET "accrued_centimicros" = y."accrued_centimicros" + EXCLUDED."accrued_centimicros",
        "updated_at" = EXCLUDED."updated_at";
  RETURN NULL;
END;
$function$;

-- last defined by migration 0069_auto_pay_router_skim_commitment
CREATE OR REPLACE FUNCTION public.auto_pay_follow_leg()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_planned BIGINT := auto_pay_planned_skim(
    (SELECT p."request" FROM "plans" p WHERE p."id" = NEW."plan_id"));
  v_delta BIGINT :=
    auto_pay_leg_commitment(NEW."status", NEW."released_at" IS NOT NULL, NEW."amount_micros",
                            NEW."settled_amount_micros", NEW."skim_micros", v_planned)
    - auto_pay_leg_commitment(OLD."status", OLD."released_at" IS NOT NULL, OLD."amount_micros",
                              OLD."settled_amount_micros", OLD."skim_micros", v_planned);
BEGIN
  -- The run's pool (0023, 0067).
  UPDATE "auto_pay_yield" y
  SET "committed_micros" = y."committed_micros" + v_delta, "updated_at" = now()
  FROM "auto_pay_runs" r
  WHERE v_delta <> 0 AND r."plan_id" = NEW."plan_id" AND y."wallet" = r."wallet"
    AND y."chain" = r."chain" AND y."opportunity_id" = r."opportunity_id";
  RETURN NULL;
END;
$function$;

-- last defined by migration 0067_auto_pay_skim_commitment
CREATE OR REPLACE FUNCTION public.auto_pay_leg_commitment(p_status text, p_released boolean, p_amount bigint, p_settled bigint, p_inline_skim bigint, p_planned_skim bigint)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN "p_status" = 'confirmed'
      THEN GREATEST(COALESCE("p_settled", 0) + COALESCE("p_inline_skim", 0) - "p_planned_skim", 0)
    WHEN "p_status" IN ('unsigned', 'submitted') AND NOT "p_released"
      THEN GREATEST("p_amount" - "p_planned_skim", 0)
    ELSE 0 END
$function$;

-- last defined by migration 0069_auto_pay_router_skim_commitment
CREATE OR REPLACE FUNCTION public.auto_pay_planned_skim(p_request jsonb)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT COALESCE((
    SELECT (s."planned" ->> 'amountMicros')::BIGINT
    FROM (VALUES (1, "p_request" -> 'skim'), (2, "p_request" -> 'routerSkim')) s("rank", "planned")
    WHERE s."planned" ->> 'amountMicros' ~ '^[0-9]{1,18}$'
    ORDER BY s."rank" LIMIT 1), 0)
$function$;

-- last defined by migration 0004_ledger
CREATE OR REPLACE FUNCTION public.ledger_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% is append-only: post a correcting entry instead', TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END;
$function$;

-- last defined by migration 0050_system_balance_shards
CREATE OR REPLACE FUNCTION public.ledger_apply_postings()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE "ledger_accounts" a SET "balance_micros" = a."balance_micros" + d."delta"
  FROM (SELECT n."account_id", SUM(n."amount_micros") AS "delta"
        FROM "new_postings" n GROUP BY n."account_id") d
  WHERE a."id" = d."account_id" AND a."kind" = 'wallet';
  -- pg_backend_pid(): no two open transactions share a backend, so none shares a shard row.
  INSERT INTO "ledger_balance_shards" AS s ("account_id", "shard", "balance_micros")
  SELECT n."account_id", pg_backend_pid(), SUM(n."amount_micros")
  FROM "new_postings" n
  JOIN "ledger_accounts" a ON a."id" = n."account_id" AND a."kind" = 'system'
  GROUP BY n."account_id"
  ORDER BY n."account_id"
  ON CONFLICT ("account_id", "shard")
    DO UPDATE SET "balance_micros" = s."balance_micros" + EXCLUDED."balance_micros";
  RETURN NULL;
END;
$function$;

-- last defined by migration 0004_ledger
CREATE OR REPLACE FUNCTION public.ledger_balance_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF pg_trigger_depth() < 2 AND NEW."balance_micros" IS DISTINCT FROM OLD."balance_micros" THEN
    RAISE EXCEPTION 'ledger_accounts.balance_micros moves only through postings'
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$function$;

-- last defined by migration 0040_entry_balance_check
CREATE OR REPLACE FUNCTION public.ledger_check_entry()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_legs BIGINT;
  v_total NUMERIC;
  v_asset TEXT;
  v_sum NUMERIC;
BEGIN
  -- Both arrays aggregate the same rows in the same order: element 1 of each is one asset.
  SELECT COALESCE(SUM(g."n"), 0), COALESCE(SUM(g."s"), 0),
         (array_agg(g."asset") FILTER (WHERE g."s" <> 0))[1],
         (array_agg(g."s") FILTER (WHERE g."s" <> 0))[1]
  INTO v_legs, v_total, v_asset, v_sum
  FROM (SELECT x."asset", COUNT(*) AS "n", SUM(x."amount") AS "s"
        FROM (SELECT (SELECT a."asset" FROM "ledger_accounts" a WHERE a."id" = p."account_id")
                       AS "asset",
                     p."amount_micros" AS "amount"
              FROM "postings" p WHERE p."entry_id" = NEW."entry_id") x
        GROUP BY x."asset") g;
  IF v_legs < 2 OR v_total <> 0 THEN
    RAISE EXCEPTION 'journal entry % is unbalanced: % postings summing to %',
      NEW."entry_id", v_legs, v_total USING ERRCODE = 'check_violation';
  END IF;
  IF v_asset IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % is unbalanced in %: its postings sum to %',
      NEW."entry_id", v_asset, v_sum USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$function$;

-- last defined by migration 0011_books_follow_chain
CREATE OR REPLACE FUNCTION public.ledger_check_entry_posted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_postings BIGINT;
BEGIN
  v_postings := (SELECT COUNT(*) FROM "postings" WHERE "entry_id" = NEW."id");
  IF v_postings < 2 THEN
    RAISE EXCEPTION 'journal entry % is unbalanced: % posting(s)', NEW."id", v_postings
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$function$;

-- last defined by migration 0011_books_follow_chain
CREATE OR REPLACE FUNCTION public.ledger_check_leg_released()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "journal_entries" e
    WHERE e."plan_id" = NEW."plan_id" AND e."leg_index" = NEW."leg_index"
      AND (e."kind" LIKE '%.settled' OR e."kind" LIKE '%.released')) THEN
    RAISE EXCEPTION 'leg %/% became % with its reservation still held', NEW."plan_id",
      NEW."leg_index", NEW."status" USING ERRCODE = 'YR003';
  END IF;
  RETURN NULL;
END;
$function$;

-- last defined by migration 0021_guardrails_rebalance
CREATE OR REPLACE FUNCTION public.ledger_check_reservations()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_entry BIGINT;
BEGIN
  SELECT e."id" INTO v_entry
  FROM (SELECT DISTINCT n."entry_id" FROM "new_postings" n
        JOIN "ledger_accounts" a ON a."id" = n."account_id"
        WHERE a."bucket" IN ('pending_in', 'pending_out')) p
  JOIN "journal_entries" e ON e."id" = p."entry_id"
  WHERE NOT EXISTS (
    SELECT 1 FROM "plan_legs" l
    WHERE l."plan_id" = e."plan_id"
      AND (l."leg_index" = e."leg_index"
           AND l."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid', 'rebalance_out',
                              'rebalance_in')
           OR (e."leg_index" IS NULL AND l."status" IN ('unsigned', 'submitted')
               AND l."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid'))))
  LIMIT 1;
  IF v_entry IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % moves a reservation without the leg that holds it', v_entry
      USING ERRCODE = 'YR003';
  END IF;
  RETURN NULL;
END;
$function$;

-- last defined by migration 0050_system_balance_shards
CREATE OR REPLACE FUNCTION public.ledger_fold_balance_shards()
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_folded INTEGER;
BEGIN
  PERFORM set_config('ledger.folding_shards', 'on', true);
  WITH "taken" AS (
    SELECT s."account_id", s."shard" FROM "ledger_balance_shards" s
    WHERE s."shard" <> 0
    ORDER BY s."account_id", s."shard"
    FOR UPDATE SKIP LOCKED
  ), "moved" AS (
    DELETE FROM "ledger_balance_shards" s USING "taken" t
    WHERE s."account_id" = t."account_id" AND s."shard" = t."shard"
    RETURNING s."account_id", s."balance_micros"
  ), "folded" AS (
    INSERT INTO "ledger_balance_shards" AS s ("account_id", "shard", "balance_micros")
    SELECT m."account_id", 0, SUM(m."balance_micros") FROM "moved" m
    GROUP BY m."account_id" ORDER BY m."account_id"
    ON CONFLICT ("account_id", "shard")
      DO UPDATE SET "balance_micros" = s."balance_micros" + EXCLUDED."balance_micros"
    RETURNING 1
  )
  SELECT (SELECT COUNT(*) FROM "moved") INTO v_folded FROM (SELECT COUNT(*) FROM "folded") f;
  PERFORM set_config('ledger.folding_shards', 'off', true);
  RETURN v_folded;
END;
$function$;

-- last defined by migration 0011_books_follow_chain
CREATE OR REPLACE FUNCTION public.ledger_insert_item_events(p_items jsonb, p_ords integer[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "outbox_events" ("id", "type", "wallet", "payload", "created_at")
  SELECT v.x ->> 'id', v.x ->> 'type', v.x ->> 'wallet', v.x -> 'payload',
         (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n),
       jsonb_array_elements(t.e -> 'events') WITH ORDINALITY AS v(x, m)
  WHERE t.n::INTEGER = ANY("p_ords")
  ORDER BY t.n, v.m;
END;
$function$;

-- last defined by migration 0010_batched_settlement
CREATE OR REPLACE FUNCTION public.ledger_insert_outbox(p_events jsonb, p_now timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "outbox_events" ("id", "type", "wallet", "payload", "created_at")
  SELECT t.e ->> 'id', t.e ->> 'type', t.e ->> 'wallet', t.e -> 'payload', "p_now"
  FROM jsonb_array_elements("p_events") WITH ORDINALITY AS t(e, n)
  ORDER BY t.n;
END;
$function$;

-- last defined by migration 0068_deferred_leg_simulation
CREATE OR REPLACE FUNCTION public.ledger_insert_plans(p_plans jsonb, p_transfers jsonb, p_legs jsonb, p_simulations jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  WITH plan_rows AS (
    INSERT INTO "plans" ("id", "kind", "status", "chain", "venue_id", "owner", "wallet",
                         "amount_micros", "fee_micros", "request", "blockers", "swap",
                         "created_at")
    SELECT p."id", p."kind", p."status", p."chain", p."venue_id", p."owner", p."wallet",
           p."amount_micros", p."fee_micros", p."request", p."blockers", p."swap",
           COALESCE(p."created_at", now())
    FROM jsonb_to_recordset("p_plans") AS p("id" TEXT, "kind" TEXT, "status" TEXT, "chain" TEXT,
                                            "venue_id" TEXT, "owner" TEXT, "wallet" TEXT,
                                            "amount_micros" BIGINT, "fee_micros" BIGINT,
                                            "request" JSONB, "blockers" JSONB, "swap" JSONB,
                                            "created_at" TIMESTAMPTZ)
  ), transfer_rows AS (
    INSERT INTO "bridge_transfers" ("plan_id", "rail", "speed", "source_chain", "dest_chain",
                                    "owner", "recipient", "burn_micros", "max_rail_fee_micros",
                                    "min_received_micros", "service_fee_micros",
                                    "fee_recipient")
    SELECT t."plan_id", t."rail", t."speed", t."source_chain", t."dest_chain", t."owner",
           t."recipient", t."burn_micros", t."max_rail_fee_micros", t."min_received_micros",
           t."service_fee_micros", t."fee_recipient"
    FROM jsonb_to_recordset("p_transfers") AS t("plan_id" TEXT, "rail" TEXT, "speed" TEXT,
                                                "source_chain" TEXT, "dest_chain" TEXT,
                                                "owner" TEXT, "recipient" TEXT,
                                                "burn_micros" BIGINT,
                                                "max_rail_fee_micros" BIGINT,
                                                "min_received_micros" BIGINT,
                                                "service_fee_micros" BIGINT,
                                                "fee_recipient" TEXT)
  ), simulation_rows AS (
    INSERT INTO "plan_simulations" ("plan_id", "status", "digest", "document", "deferred_roles")
    SELECT s."plan_id", s."status", s."digest", s."document", s."deferred_roles"
    FROM jsonb_to_recordset("p_simulations") AS s("plan_id" TEXT, "status" TEXT, "digest" TEXT,
                                                  "document" JSONB, "deferred_roles" JSONB)
  )
  INSERT INTO "plan_legs" ("plan_id", "leg_index", "action", "summary", "amount_micros",
                           "settles", "payload", "effect", "venue_id", "min_settle_micros",
                           "max_settle_micros", "chain")
  SELECT l."plan_id", l."leg_index", l."action", l."summary", l."amount_micros", l."settles",
         l."payload", l."effect", l."venue_id", l."min_settle_micros", l."max_settle_micros",
         l."chain"
  FROM jsonb_to_recordset("p_legs") AS l("plan_id" TEXT, "leg_index" INTEGER, "action" TEXT,
                                         "summary" TEXT, "amount_micros" BIGINT,
                                         "settles" BOOLEAN, "payload" JSONB, "effect" TEXT,
                                         "venue_id" TEXT, "min_settle_micros" BIGINT,
                                         "max_settle_micros" BIGINT, "chain" TEXT);
END;
$function$;

-- last defined by migration 0011_books_follow_chain
CREATE OR REPLACE FUNCTION public.ledger_leg_transition()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF OLD."status" IN ('confirmed', 'failed') AND (
       NEW."status" IS DISTINCT FROM OLD."status" OR NEW."tx_id" IS DISTINCT FROM OLD."tx_id"
       OR NEW."settled_amount_micros" IS DISTINCT FROM OLD."settled_amount_micros") THEN
    RAISE EXCEPTION 'leg %/% is % and final', OLD."plan_id", OLD."leg_index", OLD."status"
      USING ERRCODE = 'YR002';
  END IF;
  IF OLD."status" IN ('expired', 'cancelled') AND NEW."status" IN ('unsigned', 'submitted') THEN
    RAISE EXCEPTION 'leg %/% is % and cannot reopen', OLD."plan_id", OLD."leg_index",
      OLD."status" USING ERRCODE = 'YR002';
  END IF;
  RETURN NEW;
END;
$function$;

-- last defined by migration 0052_one_notifier_at_a_time
CREATE OR REPLACE FUNCTION public.ledger_notify_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM "inserted")
     AND pg_try_advisory_xact_lock(hashtext(TG_ARGV[0])) THEN
    PERFORM pg_notify(TG_ARGV[0], '');
  END IF;
  RETURN NULL;
END;
$function$;

-- last defined by migration 0064_receipt_wakes
CREATE OR REPLACE FUNCTION public.ledger_notify_receipt()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF pg_try_advisory_xact_lock(hashtext('ledger_receipts')) THEN
    PERFORM pg_notify('ledger_receipts', '');
  END IF;
  RETURN NULL;
END;
$function$;

-- last defined by migration 0050_system_balance_shards
CREATE OR REPLACE FUNCTION public.ledger_outcome_accounts(p_outcomes jsonb)
 RETURNS TABLE(kind text, wallet text, chain text, bucket text)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT DISTINCT q."kind", q."wallet", q."chain", q."bucket"
  FROM jsonb_array_elements("p_outcomes") t(e),
       jsonb_to_recordset(
         CASE WHEN jsonb_typeof(t.e -> 'entry') = 'object' THEN t.e -> 'entry' -> 'postings'
              ELSE '[]'::JSONB END
         || CASE WHEN jsonb_typeof(t.e -> 'guards') = 'array' THEN t.e -> 'guards'
                 ELSE '[]'::JSONB END
         || CASE WHEN jsonb_typeof(t.e -> 'autoPaySweep') = 'array' THEN t.e -> 'autoPaySweep'
                 ELSE '[]'::JSONB END
       ) AS q("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT)
  WHERE q."wallet" IS NOT NULL
$function$;

-- last defined by migration 0015_exactly_once_writes
CREATE OR REPLACE FUNCTION public.ledger_post_entries(p_entries jsonb)
 RETURNS TABLE(ord integer, entry_id bigint, replay boolean)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_ords INTEGER[];
  v_ids BIGINT[];
  v_replays BOOLEAN[];
  v_differs TEXT;
BEGIN
  SELECT array_agg(r."ord" ORDER BY r."ord"), array_agg(r."entry_id" ORDER BY r."ord"),
         array_agg(r."replay" ORDER BY r."ord")
  INTO v_ords, v_ids, v_replays
  FROM ledger_post_entries_unchecked("p_entries") r;
  IF v_ords IS NULL THEN
    RETURN;
  END IF;
  IF true = ANY(v_replays) THEN
    SELECT t.e ->> 'dedupeKey' INTO v_differs
    FROM unnest(v_ords, v_ids, v_replays) AS u("ord", "id", "replay")
    JOIN LATERAL (SELECT "p_entries" -> (u."ord" - 1) AS e) t ON TRUE
    JOIN "journal_entries" j ON j."id" = u."id"
    WHERE u."replay"
      AND (j."kind" IS DISTINCT FROM t.e ->> 'kind'
           OR j."plan_id" IS DISTINCT FROM t.e ->> 'planId'
           OR j."leg_index" IS DISTINCT FROM (t.e ->> 'legIndex')::INTEGER
           OR (SELECT array_agg(s.x ORDER BY s.x)
               FROM (SELECT concat_ws('/', a."wallet", a."chain", a."bucket", p."amount_micros") AS x
                     FROM "postings" p JOIN "ledger_accounts" a ON a."id" = p."account_id"
                     WHERE p."entry_id" = u."id") s)
              IS DISTINCT FROM
              (SELECT array_agg(s.x ORDER BY s.x)
               FROM (SELECT concat_ws('/', q."wallet", q."chain", q."bucket", q."amount") AS x
                     FROM jsonb_to_recordset(t.e -> 'postings')
                       AS q("wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)) s))
    ORDER BY u."ord"
    LIMIT 1;
    IF v_differs IS NOT NULL THEN
      RAISE EXCEPTION 'dedupe key % was posted before as another entry', v_differs
        USING ERRCODE = 'YR002';
    END IF;
  END IF;
  RETURN QUERY SELECT u."ord", u."id", u."replay"
    FROM unnest(v_ords, v_ids, v_replays) AS u("ord", "id", "replay") ORDER BY u."ord";
END;
$function$;

-- last defined by migration 0050_system_balance_shards
CREATE OR REPLACE FUNCTION public.ledger_post_entries_unchecked(p_entries jsonb)
 RETURNS TABLE(ord integer, entry_id bigint, replay boolean)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_entries INTEGER := jsonb_array_length("p_entries");
  v_ords INTEGER[];
  v_ids BIGINT[];
  v_amounts BIGINT[];
  v_missing BOOLEAN;
  v_entry_ids BIGINT[];
  v_posted INTEGER[];
  v_short TEXT;
BEGIN
  IF v_entries = 0 THEN
    RETURN;
  END IF;
  FOR v_attempt IN 1..2 LOOP
    SELECT array_agg(p."ord"), array_agg(a."id"), array_agg(p."amount"), bool_or(a."id" IS NULL)
    INTO v_ords, v_ids, v_amounts, v_missing
    FROM (SELECT t.n::INTEGER AS "ord", q.*
          FROM jsonb_array_elements("p_entries") WITH ORDINALITY AS t(e, n),
               jsonb_to_recordset(t.e -> 'postings')
                 AS q("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
         ) p
    LEFT JOIN LATERAL (
      SELECT l."id" FROM "ledger_accounts" l
      WHERE p."wallet" IS NOT NULL AND l."wallet" = p."wallet" AND l."chain" = p."chain"
        AND l."bucket" = p."bucket"
      UNION ALL
      SELECT l."id" FROM "ledger_accounts" l
      WHERE p."wallet" IS NULL AND l."wallet" IS NULL AND l."chain" = p."chain"
        AND l."bucket" = p."bucket"
    ) a ON TRUE;
    EXIT WHEN v_missing IS NOT TRUE;
    IF v_attempt = 2 THEN
      RAISE EXCEPTION 'ledger accounts could not be created';
    END IF;
    INSERT INTO "ledger_accounts" ("kind", "wallet", "chain", "bucket")
    SELECT DISTINCT q."kind", q."wallet", q."chain", q."bucket"
    FROM jsonb_array_elements("p_entries") AS t(e),
         jsonb_to_recordset(t.e -> 'postings')
           AS q("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
    ORDER BY q."wallet", q."chain", q."bucket"
    ON CONFLICT ("wallet", "chain", "bucket") DO NOTHING;
  END LOOP;

  -- Wallet accounts only (0050): a system account's balance moves in this backend's own shard
  -- row, so writers on one chain do not wait on each other.
  PERFORM 1 FROM "ledger_accounts" l
  WHERE l."id" = ANY(v_ids) AND l."kind" = 'wallet' ORDER BY l."id" FOR UPDATE;

  -- Entry ids are drawn first, so each inserted row is known by the entry it came from.
  SELECT array_agg(nextval('journal_entries_id_seq')) INTO v_entry_ids
  FROM generate_series(1, v_entries);
  WITH inserted AS (
    INSERT INTO "journal_entries"
      ("id", "kind", "dedupe_key", "plan_id", "leg_index", "tx_id", "memo")
    SELECT v_entry_ids[t.n], t.e ->> 'kind', t.e ->> 'dedupeKey', t.e ->> 'planId',
           (t.e ->> 'legIndex')::INTEGER, t.e ->> 'txId', t.e ->> 'memo'
    FROM jsonb_array_elements("p_entries") WITH ORDINALITY AS t(e, n)
    ORDER BY t.n
    ON CONFLICT ("dedupe_key") DO NOTHING
    RETURNING "id"
  )
  SELECT COALESCE(array_agg(array_position(v_entry_ids, i."id")), '{}') INTO v_posted
  FROM inserted i;

  SELECT format('%s/%s/%s holds %s micros; the entry needs %s', l."wallet", l."chain",
                l."bucket", l."balance_micros", -d."delta")
  INTO v_short
  FROM (SELECT u."id", SUM(u."amount") AS "delta"
        FROM unnest(v_ords, v_ids, v_amounts) AS u("ord", "id", "amount")
        WHERE u."ord" = ANY(v_posted) GROUP BY u."id") d
  JOIN "ledger_accounts" l ON l."id" = d."id"
  WHERE l."id" = ANY(v_ids) AND l."kind" = 'wallet' AND l."balance_micros" + d."delta" < 0
  ORDER BY l."id" LIMIT 1;
  IF v_short IS NOT NULL THEN
    RAISE EXCEPTION '%', v_short USING ERRCODE = 'YR001';
  END IF;

  INSERT INTO "postings" ("entry_id", "account_id", "amount_micros")
  SELECT v_entry_ids[u."ord"], u."id", u."amount"
  FROM unnest(v_ords, v_ids, v_amounts) AS u("ord", "id", "amount")
  WHERE u."ord" = ANY(v_posted)
  ORDER BY u."id", u."ord";
  SET CONSTRAINTS "postings_balanced" IMMEDIATE;

  IF cardinality(v_posted) = v_entries THEN
    RETURN QUERY SELECT u.n::INTEGER, u."id", FALSE
      FROM unnest(v_entry_ids) WITH ORDINALITY AS u("id", n) ORDER BY u.n;
    RETURN;
  END IF;
  -- A replay reports the entry that holds its key (posted before, or earlier in this batch).
  RETURN QUERY
  SELECT t.n::INTEGER, COALESCE(CASE WHEN t.n::INTEGER = ANY(v_posted) THEN v_entry_ids[t.n] END,
                                 e."id"),
         NOT (t.n::INTEGER = ANY(v_posted))
  FROM jsonb_array_elements("p_entries") WITH ORDINALITY AS t(x, n)
  LEFT JOIN "journal_entries" e
    ON NOT (t.n::INTEGER = ANY(v_posted)) AND e."dedupe_key" = t.x ->> 'dedupeKey'
   AND e."dedupe_key" = ANY(ARRAY(SELECT j ->> 'dedupeKey' FROM jsonb_array_elements("p_entries") j))
  ORDER BY t.n;
END;
$function$;

-- last defined by migration 0010_batched_settlement
CREATE OR REPLACE FUNCTION public.ledger_post_entry(p_entry jsonb)
 RETURNS TABLE(entry_id bigint, replay boolean)
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN QUERY SELECT r."entry_id", r."replay"
    FROM ledger_post_entries(jsonb_build_array("p_entry")) r;
END;
$function$;

-- last defined by migration 0011_books_follow_chain
CREATE OR REPLACE FUNCTION public.ledger_record_harvests(p_items jsonb)
 RETURNS TABLE(ord integer, stale boolean, entry_id bigint)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_fresh INTEGER[];
  v_entries BIGINT[];
BEGIN
  PERFORM 1 FROM "positions" p
  WHERE (p."wallet", p."chain", p."opportunity_id") IN (
    SELECT t.e ->> 'wallet', t.e ->> 'chain', t.e ->> 'opportunityId'
    FROM jsonb_array_elements("p_items") t(e))
  ORDER BY p."wallet", p."chain", p."opportunity_id"
  FOR UPDATE;
  SELECT COALESCE(array_agg(x.n ORDER BY x.n), '{}') INTO v_fresh
  FROM (
    SELECT t.n::INTEGER AS n,
           row_number() OVER (PARTITION BY t.e ->> 'wallet', t.e ->> 'chain',
                              t.e ->> 'opportunityId' ORDER BY t.n) AS r
    FROM jsonb_array_elements("p_items") WITH ORDINALITY t(e, n)
    JOIN "positions" p
      ON p."wallet" = t.e ->> 'wallet' AND p."chain" = t.e ->> 'chain'
     AND p."opportunity_id" = t.e ->> 'opportunityId'
    WHERE p."version" = (t.e ->> 'version')::BIGINT) x
  WHERE x.r = 1;

  SELECT COALESCE(array_agg(r."entry_id" ORDER BY r."ord"), '{}') INTO v_entries
  FROM ledger_post_entries((
    SELECT COALESCE(jsonb_agg(t.e -> 'entry' ORDER BY t.n), '[]')
    FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n)
    WHERE t.n::INTEGER = ANY(v_fresh))) r;

  INSERT INTO "harvests" ("id", "wallet", "chain", "opportunity_id", "venue_id", "entry_id",
                          "value_micros", "value_as_of", "basis_micros", "gross_micros",
                          "protocol_fee_micros", "profit_fee_micros", "net_micros", "shares",
                          "untracked_micros", "created_at")
  SELECT h ->> 'id', t.e ->> 'wallet', t.e ->> 'chain', t.e ->> 'opportunityId', h ->> 'venueId',
         v_entries[array_position(v_fresh, t.n::INTEGER)], (h ->> 'value')::BIGINT,
         (h ->> 'valueAsOf')::TIMESTAMPTZ, (h ->> 'basis')::BIGINT, (h ->> 'gross')::BIGINT,
         (h ->> 'protocolFee')::BIGINT, (h ->> 'profitFee')::BIGINT, (h ->> 'net')::BIGINT,
         (h ->> 'shares')::NUMERIC, (h ->> 'untracked')::BIGINT, (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n),
       LATERAL (SELECT t.e -> 'harvest' AS h) x
  WHERE t.n::INTEGER = ANY(v_fresh);

  UPDATE "positions" p
  SET "mark_micros" = (t.e ->> 'mark')::BIGINT,
      "fees_retained_micros" = (t.e ->> 'feesRetained')::BIGINT,
      "version" = p."version" + 1,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n)
  WHERE t.n::INTEGER = ANY(v_fresh)
    AND p."wallet" = t.e ->> 'wallet' AND p."chain" = t.e ->> 'chain'
    AND p."opportunity_id" = t.e ->> 'opportunityId';

  PERFORM ledger_insert_item_events("p_items", v_fresh);
  SET CONSTRAINTS "journal_entries_posted" IMMEDIATE;

  RETURN QUERY
  SELECT t.n::INTEGER, NOT (t.n::INTEGER = ANY(v_fresh)),
         CASE WHEN t.n::INTEGER = ANY(v_fresh)
              THEN v_entries[array_position(v_fresh, t.n::INTEGER)] END
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n)
  ORDER BY t.n;
END;
$function$;

-- last defined by migration 0011_books_follow_chain
CREATE OR REPLACE FUNCTION public.ledger_record_leg_outcome(p jsonb)
 RETURNS TABLE(final boolean, stale boolean, status text, tx_id text, settled_amount_micros bigint, failure_reason text)
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN QUERY
  SELECT r."final", r."stale", r."status", r."tx_id", r."settled_amount_micros", r."failure_reason"
  FROM ledger_record_leg_outcomes(jsonb_build_array("p")) r;
END;
$function$;

-- last defined by migration 0041_guarded_leg_outcomes
CREATE OR REPLACE FUNCTION public.ledger_record_leg_outcomes(p_outcomes jsonb)
 RETURNS TABLE(ord integer, final boolean, stale boolean, status text, tx_id text, settled_amount_micros bigint, failure_reason text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_items JSONB := "p_outcomes";
  v_guarded BOOLEAN := jsonb_path_exists("p_outcomes", '$[*].guards[*]');
  v_returns BOOLEAN := jsonb_path_exists("p_outcomes", '$[*].autoPayReturn');
  v_sweeps BOOLEAN := jsonb_path_exists("p_outcomes", '$[*].autoPaySweep');
  v_swept TEXT[] := '{}';
  v_plan TEXT;
  v_excess BIGINT;
  v_plans TEXT[];
  v_legs INTEGER[];
  v_moved INTEGER[];
  v_row RECORD;
  v_return BIGINT;
BEGIN
  IF v_guarded OR v_returns OR v_sweeps THEN
    -- The wrapped function's leg locks, taken first, in its order.
    SELECT array_agg(k.p ORDER BY k.p, k.i), array_agg(k.i ORDER BY k.p, k.i)
    INTO v_plans, v_legs
    FROM (SELECT t.e ->> 'planId' AS p, (t.e ->> 'legIndex')::INTEGER AS i
          FROM jsonb_array_elements("p_outcomes") t(e)
          UNION
          SELECT t.e -> 'takeover' ->> 'planId', (t.e -> 'takeover' ->> 'legIndex')::INTEGER
          FROM jsonb_array_elements("p_outcomes") t(e)
          WHERE jsonb_typeof(t.e -> 'takeover') = 'object'
          UNION
          SELECT l."plan_id", l."leg_index" FROM "plan_legs" l
          WHERE l."plan_id" IN (SELECT t.e ->> 'planId' FROM jsonb_array_elements("p_outcomes") t(e)
                                WHERE t.e ? 'autoPaySweep')) k;
    PERFORM 1 FROM "plan_legs" l
    WHERE l."plan_id" = ANY(v_plans)
      AND (l."plan_id", l."leg_index") IN (SELECT * FROM unnest(v_plans, v_legs))
    ORDER BY l."plan_id", l."leg_index"
    FOR UPDATE;
  END IF;
  IF v_returns OR v_sweeps THEN
    PERFORM 1 FROM "auto_pay_yield" y JOIN "auto_pay_runs" r
      ON y."wallet" = r."wallet" AND y."chain" = r."chain" AND y."opportunity_id" = r."opportunity_id"
    WHERE r."plan_id" IN (SELECT t.e ->> 'planId' FROM jsonb_array_elements("p_outcomes") t(e)
                          WHERE t.e ? 'autoPayReturn' OR t.e ? 'autoPaySweep')
    ORDER BY y."wallet", y."chain", y."opportunity_id"
    FOR UPDATE OF y;
  END IF;
  IF v_guarded OR v_sweeps THEN
    -- Positions, then accounts (created when new, in key order; locked in id order): the
    -- wrapped function and ledger_post_entries take the same locks again, already held.
    INSERT INTO "positions" ("wallet", "chain", "opportunity_id", "venue_id")
    SELECT DISTINCT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
           t.e -> 'position' ->> 'opportunityId', t.e -> 'position' ->> 'venueId'
    FROM jsonb_array_elements("p_outcomes") t(e)
    WHERE jsonb_typeof(t.e -> 'position') = 'object'
    ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING;
    PERFORM 1 FROM "positions" p
    WHERE (p."wallet", p."chain", p."opportunity_id") IN (
      SELECT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
             t.e -> 'position' ->> 'opportunityId'
      FROM jsonb_array_elements("p_outcomes") t(e)
      WHERE jsonb_typeof(t.e -> 'position') = 'object')
    ORDER BY p."wallet", p."chain", p."opportunity_id"
    FOR UPDATE;
    INSERT INTO "ledger_accounts" ("kind", "wallet", "chain", "bucket")
    SELECT o."kind", o."wallet", o."chain", o."bucket"
    FROM ledger_outcome_accounts("p_outcomes") o
    WHERE NOT EXISTS (SELECT 1 FROM "ledger_accounts" a
                      WHERE a."wallet" IS NOT DISTINCT FROM o."wallet"
                        AND a."chain" IS NOT DISTINCT FROM o."chain" AND a."bucket" = o."bucket")
    ORDER BY o."wallet", o."chain", o."bucket"
    ON CONFLICT ("wallet", "chain", "bucket") DO NOTHING;
    PERFORM 1 FROM "ledger_accounts" a
    WHERE EXISTS (SELECT 1 FROM ledger_outcome_accounts("p_outcomes") o
                  WHERE a."wallet" IS NOT DISTINCT FROM o."wallet"
                    AND a."chain" IS NOT DISTINCT FROM o."chain" AND a."bucket" = o."bucket")
    ORDER BY a."id"
    FOR UPDATE;

    SELECT COALESCE(array_agg(DISTINCT t.n::INTEGER), '{}') INTO v_moved
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    CROSS JOIN LATERAL jsonb_to_recordset(
      CASE WHEN jsonb_typeof(t.e -> 'guards') = 'array' THEN t.e -> 'guards' ELSE '[]'::JSONB END
    ) AS g("wallet" TEXT, "chain" TEXT, "bucket" TEXT, "planId" TEXT, "expect" NUMERIC)
    JOIN "ledger_accounts" a
      ON a."wallet" = g."wallet" AND a."chain" = g."chain" AND a."bucket" = g."bucket"
    WHERE g."expect" <> CASE
      WHEN g."planId" IS NULL THEN a."balance_micros"
      ELSE (SELECT COALESCE(SUM(po."amount_micros"), 0) FROM "journal_entries" j
            JOIN "postings" po ON po."entry_id" = j."id"
            WHERE j."plan_id" = g."planId" AND po."account_id" = a."id") END;
    IF cardinality(v_moved) > 0 THEN
      -- Written as nothing: the leg is not in `[]`, so the wrapped function answers it stale
      -- (or final, when it already was).
      SELECT jsonb_agg(CASE WHEN t.n::INTEGER = ANY(v_moved)
                            THEN (t.e - 'position' - 'entry' - 'takeover' - 'autoPayReturn')
                                 || '{"expect": []}'::JSONB
                            ELSE t.e END ORDER BY t.n)
      INTO v_items
      FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n);
    END IF;
  END IF;

  FOR v_row IN SELECT * FROM ledger_record_leg_outcomes_unguarded(v_items) r ORDER BY r."ord" LOOP
    v_return := (v_items -> (v_row."ord" - 1) ->> 'autoPayReturn')::BIGINT;
    IF v_return IS NOT NULL AND v_return <> 0 AND NOT v_row."final" AND NOT v_row."stale" THEN
      UPDATE "auto_pay_yield" y
      SET "committed_micros" = y."committed_micros"
            - GREATEST(LEAST(v_return, y."committed_micros"), -y."returned_micros"),
          "returned_micros" = y."returned_micros"
            + GREATEST(LEAST(v_return, y."committed_micros"), -y."returned_micros"),
          "updated_at" = now()
      FROM "auto_pay_runs" r
      WHERE r."plan_id" = v_items -> (v_row."ord" - 1) ->> 'planId'
        AND y."wallet" = r."wallet" AND y."chain" = r."chain"
        AND y."opportunity_id" = r."opportunity_id";
    END IF;
    IF v_items -> (v_row."ord" - 1) ? 'autoPaySweep' AND NOT v_row."final"
       AND NOT v_row."stale" THEN
      v_swept := array_append(v_swept, v_items -> (v_row."ord" - 1) ->> 'planId');
    END IF;
    "ord" := v_row."ord";
    "final" := v_row."final";
    "stale" := v_row."stale";
    "status" := v_row."status";
    "tx_id" := v_row."tx_id";
    "settled_amount_micros" := v_row."settled_amount_micros";
    "failure_reason" := v_row."failure_reason";
    RETURN NEXT;
  END LOOP;

  FOR v_plan IN SELECT DISTINCT u FROM unnest(v_swept) u ORDER BY 1 LOOP
    CONTINUE WHEN EXISTS (SELECT 1 FROM "plan_legs" l
                          WHERE l."plan_id" = v_plan AND l."effect" = 'unstake_yield'
                            AND l."status" IN ('unsigned', 'submitted') AND l."released_at" IS NULL);
    SELECT COALESCE(SUM(po."amount_micros"), 0)
           - (SELECT COALESCE(SUM(l."amount_micros"), 0) FROM "plan_legs" l
              WHERE l."plan_id" = v_plan AND l."effect" = 'pay_out'
                AND l."status" IN ('unsigned', 'submitted') AND l."released_at" IS NULL)
    INTO v_excess
    FROM "auto_pay_runs" r
    JOIN "journal_entries" j ON j."plan_id" = r."plan_id"
    JOIN "postings" po ON po."entry_id" = j."id"
    JOIN "ledger_accounts" a ON a."id" = po."account_id"
      AND a."wallet" = r."wallet" AND a."chain" = r."chain" AND a."bucket" = 'auto_pay'
    WHERE r."plan_id" = v_plan;
    CONTINUE WHEN v_excess IS NULL OR v_excess <= 0;
    -- The wrapped function made the posted-entry check immediate; an entry gets its postings
    -- after its row, within ledger_post_entries: deferred for it, then immediate again.
    SET CONSTRAINTS "journal_entries_posted" DEFERRED;
    PERFORM 1 FROM ledger_post_entries((
      SELECT jsonb_build_array(jsonb_build_object(
        'kind', 'auto_pay.returned', 'planId', r."plan_id",
        'memo', 'held for payouts no longer open: back to the owner''s liquid and the pool',
        'postings', jsonb_build_array(
          jsonb_build_object('kind', 'wallet', 'wallet', r."wallet", 'chain', r."chain",
                             'bucket', 'auto_pay', 'amount', (-v_excess)::TEXT),
          jsonb_build_object('kind', 'wallet', 'wallet', r."wallet", 'chain', r."chain",
                             'bucket', 'liquid', 'amount', v_excess::TEXT))))
      FROM "auto_pay_runs" r WHERE r."plan_id" = v_plan));
    SET CONSTRAINTS "journal_entries_posted" IMMEDIATE;
    UPDATE "auto_pay_yield" y
    SET "committed_micros" = y."committed_micros" - LEAST(v_excess, y."committed_micros"),
        "returned_micros" = y."returned_micros" + LEAST(v_excess, y."committed_micros"),
        "updated_at" = now()
    FROM "auto_pay_runs" r
    WHERE r."plan_id" = v_plan AND y."wallet" = r."wallet" AND y."chain" = r."chain"
      AND y."opportunity_id" = r."opportunity_id";
  END LOOP;
END;
$function$;

-- last defined by migration 0066_leg_treasury_skim
CREATE OR REPLACE FUNCTION public.ledger_record_leg_outcomes_unaudited(p_outcomes jsonb)
 RETURNS TABLE(ord integer, final boolean, stale boolean, status text, tx_id text, settled_amount_micros bigint, failure_reason text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_plans TEXT[];
  v_legs INTEGER[];
  v_stale INTEGER[];
  v_claimed INTEGER[];
  v_locked INTEGER;
  v_missing TEXT;
BEGIN
  SELECT array_agg(k.p ORDER BY k.p, k.i), array_agg(k.i ORDER BY k.p, k.i)
  INTO v_plans, v_legs
  FROM (SELECT t.e ->> 'planId' AS p, (t.e ->> 'legIndex')::INTEGER AS i
        FROM jsonb_array_elements("p_outcomes") t(e)
        UNION
        SELECT t.e -> 'takeover' ->> 'planId', (t.e -> 'takeover' ->> 'legIndex')::INTEGER
        FROM jsonb_array_elements("p_outcomes") t(e)
        WHERE jsonb_typeof(t.e -> 'takeover') = 'object') k;

  PERFORM 1 FROM "plan_legs" l
  WHERE l."plan_id" = ANY(v_plans)
    AND (l."plan_id", l."leg_index") IN (SELECT * FROM unnest(v_plans, v_legs))
  ORDER BY l."plan_id", l."leg_index"
  FOR UPDATE;
  GET DIAGNOSTICS v_locked = ROW_COUNT;
  IF v_locked < cardinality(v_plans) THEN
    SELECT format('%s/%s', u.p, u.i) INTO v_missing
    FROM unnest(v_plans, v_legs) AS u(p, i)
    WHERE NOT EXISTS (SELECT 1 FROM "plan_legs" l WHERE l."plan_id" = u.p AND l."leg_index" = u.i)
    LIMIT 1;
    RAISE EXCEPTION 'leg % does not exist', v_missing USING ERRCODE = 'no_data_found';
  END IF;

  -- Positions: created when new, locked in key order; an outcome whose position moved since
  -- the caller read it (or that a earlier outcome of this batch moves) is stale.
  INSERT INTO "positions" ("wallet", "chain", "opportunity_id", "venue_id")
  SELECT DISTINCT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
         t.e -> 'position' ->> 'opportunityId', t.e -> 'position' ->> 'venueId'
  FROM jsonb_array_elements("p_outcomes") t(e)
  WHERE jsonb_typeof(t.e -> 'position') = 'object'
  ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "positions" p
  WHERE (p."wallet", p."chain", p."opportunity_id") IN (
    SELECT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
           t.e -> 'position' ->> 'opportunityId'
    FROM jsonb_array_elements("p_outcomes") t(e)
    WHERE jsonb_typeof(t.e -> 'position') = 'object')
  ORDER BY p."wallet", p."chain", p."opportunity_id"
  FOR UPDATE;
  SELECT COALESCE(array_agg(x.n), '{}') INTO v_stale
  FROM (
    SELECT t.n::INTEGER AS n,
           row_number() OVER (PARTITION BY t.e -> 'position' ->> 'wallet',
                              t.e -> 'position' ->> 'chain', t.e -> 'position' ->> 'opportunityId'
                              ORDER BY t.n) AS r,
           p."version" <> (t.e -> 'position' ->> 'version')::BIGINT AS moved
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY t(e, n)
    JOIN "positions" p
      ON p."wallet" = t.e -> 'position' ->> 'wallet' AND p."chain" = t.e -> 'position' ->> 'chain'
     AND p."opportunity_id" = t.e -> 'position' ->> 'opportunityId'
    WHERE jsonb_typeof(t.e -> 'position') = 'object') x
  WHERE x.moved OR x.r > 1;

  -- A transaction the receipt proved is this leg's: the leg that claimed it gives it up.
  UPDATE "plan_legs" l
  SET "tx_id" = NULL,
      "status" = CASE WHEN l."status" = 'submitted' THEN 'unsigned' ELSE l."status" END,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  WHERE jsonb_typeof(t.e -> 'takeover') = 'object' AND NOT (t.n::INTEGER = ANY(v_stale))
    AND l."plan_id" = ANY(v_plans)
    AND l."plan_id" = t.e -> 'takeover' ->> 'planId'
    AND l."leg_index" = (t.e -> 'takeover' ->> 'legIndex')::INTEGER
    AND l."tx_id" = t.e ->> 'txId' AND l."status" NOT IN ('confirmed', 'failed');

  WITH claimed AS (
    UPDATE "plan_legs" l
    SET "status" = t.e ->> 'status',
        "tx_id" = COALESCE(t.e ->> 'txId', l."tx_id"),
        "settled_amount_micros" = (t.e ->> 'settledAmount')::BIGINT,
        "skim_micros" = (t.e ->> 'skimMicros')::BIGINT,
        "shares" = (t.e ->> 'shares')::NUMERIC,
        "failure_reason" = t.e ->> 'reason',
        "review_reason" = t.e ->> 'reviewReason',
        "released_at" = CASE WHEN (t.e ->> 'released')::BOOLEAN
                             THEN (t.e ->> 'now')::TIMESTAMPTZ ELSE l."released_at" END,
        "settled_at" = CASE WHEN t.e ->> 'status' IN ('confirmed', 'failed')
                            THEN (t.e ->> 'now')::TIMESTAMPTZ ELSE l."settled_at" END,
        "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE l."plan_id" = ANY(v_plans)
      AND l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
      AND l."status" IN (SELECT jsonb_array_elements_text(t.e -> 'expect'))
      AND NOT (t.n::INTEGER = ANY(v_stale))
    RETURNING t.n::INTEGER AS "ord"
  )
  SELECT COALESCE(array_agg(c."ord"), '{}') INTO v_claimed FROM claimed c;

  PERFORM 1 FROM ledger_post_entries((
    SELECT COALESCE(jsonb_agg(t.e -> 'entry' ORDER BY t.n), '[]')
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE t.n::INTEGER = ANY(v_claimed) AND jsonb_typeof(t.e -> 'entry') = 'object'));

  UPDATE "positions" p
  SET "shares" = (t.e -> 'position' ->> 'shares')::NUMERIC,
      "mark_micros" = (t.e -> 'position' ->> 'mark')::BIGINT,
      "fees_retained_micros" = (t.e -> 'position' ->> 'feesRetained')::BIGINT,
      "version" = p."version" + 1,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  WHERE t.n::INTEGER = ANY(v_claimed) AND jsonb_typeof(t.e -> 'position') = 'object'
    AND p."wallet" = t.e -> 'position' ->> 'wallet' AND p."chain" = t.e -> 'position' ->> 'chain'
    AND p."opportunity_id" = t.e -> 'position' ->> 'opportunityId';

  PERFORM ledger_insert_item_events("p_outcomes", v_claimed);
  -- Checked now, not at commit: a caller's transaction then rolls back cleanly.
  SET CONSTRAINTS "plan_legs_reservation_released", "journal_entries_posted" IMMEDIATE;

  RETURN QUERY
  SELECT t.n::INTEGER,
         NOT (t.n::INTEGER = ANY(v_claimed)) AND l."status" IN ('confirmed', 'failed'),
         NOT (t.n::INTEGER = ANY(v_claimed)) AND l."status" NOT IN ('confirmed', 'failed'),
         l."status", l."tx_id", l."settled_amount_micros", l."failure_reason"
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  JOIN "plan_legs" l
    ON l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
  WHERE l."plan_id" = ANY(v_plans)
  ORDER BY t.n;
END;
$function$;

-- last defined by migration 0019_settlement_audit, renamed from ledger_record_leg_outcomes by 0041_guarded_leg_outcomes
CREATE OR REPLACE FUNCTION public.ledger_record_leg_outcomes_unguarded(p_outcomes jsonb)
 RETURNS TABLE(ord integer, final boolean, stale boolean, status text, tx_id text, settled_amount_micros bigint, failure_reason text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
BEGIN
  -- A data-modifying WITH runs once and to completion whether or not the result reads it.
  RETURN QUERY
  WITH r AS MATERIALIZED (
    SELECT * FROM ledger_record_leg_outcomes_unaudited("p_outcomes")
  ), audited AS (
    INSERT INTO "audit_events" ("wallet", "operation", "method", "path", "actor_role", "key_id",
                                "request_id", "plan_id", "outcome", "status", "error_code")
    SELECT a.e ->> 'wallet', a.e ->> 'operation', a.e ->> 'method', a.e ->> 'path',
           a.e ->> 'actor_role', a.e ->> 'key_id', a.e ->> 'request_id', a.e ->> 'plan_id',
           a.e ->> 'outcome', (a.e ->> 'status')::INTEGER, a.e ->> 'error_code'
    FROM r
    CROSS JOIN LATERAL (SELECT "p_outcomes" -> (r."ord" - 1) -> 'audit' AS x) carried
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(carried.x) = 'array' THEN carried.x ELSE '[]'::JSONB END
    ) WITH ORDINALITY AS a(e, n)
    WHERE NOT r."final" AND NOT r."stale"
    ORDER BY r."ord", a."n"
    RETURNING 1
  )
  SELECT r."ord", r."final", r."stale", r."status", r."tx_id", r."settled_amount_micros",
         r."failure_reason"
  FROM r
  ORDER BY r."ord";
END;
$function$;

-- last defined by migration 0050_system_balance_shards
CREATE OR REPLACE FUNCTION public.ledger_shard_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF current_setting('ledger.folding_shards', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'ledger_balance_shards moves only through postings'
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$function$;

-- last defined by migration 0051_outbox_push
CREATE OR REPLACE FUNCTION public.ledger_time_ordered_hex()
 RETURNS text
 LANGUAGE sql
AS $function$
  SELECT lpad(to_hex(floor(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT), 12, '0')
         || substr(md5(gen_random_uuid()::TEXT), 1, 20)
$function$;

-- last defined by migration 0023_auto_pay
CREATE OR REPLACE FUNCTION public.ledger_widen_check(p_table text, p_constraint text, p_extra text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_def TEXT;
BEGIN
  SELECT pg_get_constraintdef(c.oid) INTO v_def FROM pg_constraint c
  WHERE c.conname = "p_constraint" AND c.conrelid = "p_table"::regclass;
  IF v_def IS NULL THEN
    RAISE EXCEPTION 'no constraint % on %', "p_constraint", "p_table";
  END IF;
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', "p_table", "p_constraint");
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK ((%s) OR (%s))', "p_table",
                 "p_constraint", substring(v_def FROM '^CHECK \((.*)\)$'), "p_extra");
END;
$function$;

-- last defined by migration 0063_one_statement_plan_write
CREATE OR REPLACE FUNCTION public.ledger_write_plan(p jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_written INTEGER;
BEGIN
  PERFORM ledger_insert_plans("p" -> 'plans', COALESCE("p" -> 'transfers', '[]'),
                              COALESCE("p" -> 'legs', '[]'),
                              COALESCE("p" -> 'simulations', '[]'));

  INSERT INTO "audit_events" ("wallet", "operation", "method", "path", "actor_role", "key_id",
                              "request_id", "plan_id", "outcome", "status", "error_code")
  SELECT e."wallet", e."operation", e."method", e."path", e."actor_role", e."key_id",
         e."request_id", e."plan_id", e."outcome", e."status", e."error_code"
  FROM jsonb_to_recordset(COALESCE("p" -> 'audit', '[]')) AS e(
    "wallet" TEXT, "operation" TEXT, "method" TEXT, "path" TEXT, "actor_role" TEXT,
    "key_id" TEXT, "request_id" TEXT, "plan_id" TEXT, "outcome" TEXT, "status" INTEGER,
    "error_code" TEXT);

  IF jsonb_typeof("p" -> 'write') = 'object' THEN
    INSERT INTO "idempotent_writes" ("scope", "operation", "key", "request_hash",
                                     "response_status", "response_headers", "response_body")
    VALUES ("p" -> 'write' ->> 'scope', "p" -> 'write' ->> 'operation',
            "p" -> 'write' ->> 'key', "p" -> 'write' ->> 'requestHash',
            ("p" -> 'write' ->> 'status')::INTEGER, "p" -> 'write' -> 'headers',
            "p" -> 'write' ->> 'body')
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_written = ROW_COUNT;
    IF v_written = 0 THEN
      RAISE EXCEPTION '% with key % was already written (%)', "p" -> 'write' ->> 'operation',
        "p" -> 'write' ->> 'key', "p" -> 'write' ->> 'scope' USING ERRCODE = 'YR004';
    END IF;
    UPDATE "idempotency_keys"
    SET "state" = 'completed', "response_status" = ("p" -> 'write' ->> 'status')::INTEGER,
        "response_headers" = "p" -> 'write' -> 'headers',
        "response_body" = convert_to("p" -> 'write' ->> 'body', 'UTF8'), "completed_at" = now()
    WHERE "scope" = "p" -> 'claim' ->> 'scope' AND "operation" = "p" -> 'claim' ->> 'operation'
      AND "key" = "p" -> 'claim' ->> 'key' AND "claim_token" = "p" -> 'claim' ->> 'claimToken'
      AND "state" = 'in_progress';
  END IF;

  IF jsonb_typeof("p" -> 'entry') = 'object' THEN
    PERFORM 1 FROM ledger_post_entry("p" -> 'entry');
  END IF;
END;
$function$;

-- ================================================================================================
-- Triggers
-- ================================================================================================

CREATE TRIGGER harvests_append_only BEFORE DELETE OR UPDATE ON harvests FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER harvests_auto_pay_accrue AFTER INSERT ON harvests FOR EACH ROW EXECUTE FUNCTION auto_pay_accrue();

CREATE TRIGGER journal_entries_append_only BEFORE DELETE OR UPDATE ON journal_entries FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE CONSTRAINT TRIGGER journal_entries_posted AFTER INSERT ON journal_entries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_posted();

CREATE TRIGGER ledger_accounts_balance_guard BEFORE UPDATE OF balance_micros ON ledger_accounts FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION ledger_balance_guard();

CREATE TRIGGER ledger_balance_shards_guard BEFORE INSERT OR DELETE OR UPDATE ON ledger_balance_shards FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION ledger_shard_guard();

CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_notify_inserted('ledger_outbox');

CREATE TRIGGER plan_legs_auto_pay_follow AFTER UPDATE ON plan_legs FOR EACH ROW WHEN (new.effect = 'unstake_yield'::text) EXECUTE FUNCTION auto_pay_follow_leg();

CREATE TRIGGER plan_legs_receipt_expected AFTER UPDATE OF status ON plan_legs FOR EACH ROW WHEN (new.status = 'submitted'::text AND old.status IS DISTINCT FROM 'submitted'::text OR new.status = 'confirmed'::text AND new.effect = 'bridge_burn'::text AND old.status IS DISTINCT FROM 'confirmed'::text) EXECUTE FUNCTION ledger_notify_receipt();

CREATE CONSTRAINT TRIGGER plan_legs_reservation_released AFTER UPDATE OF status ON plan_legs DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((old.status = ANY (ARRAY['unsigned'::text, 'submitted'::text])) AND (new.status <> ALL (ARRAY['unsigned'::text, 'submitted'::text])) AND (new.effect = ANY (ARRAY['fund_liquid'::text, 'fund_staked'::text, 'exit_liquid'::text]))) EXECUTE FUNCTION ledger_check_leg_released();

CREATE TRIGGER plan_legs_transition BEFORE UPDATE OF status, tx_id, settled_amount_micros ON plan_legs FOR EACH ROW WHEN (old.status <> ALL (ARRAY['unsigned'::text, 'submitted'::text])) EXECUTE FUNCTION ledger_leg_transition();

CREATE TRIGGER postings_append_only BEFORE DELETE OR UPDATE ON postings FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER postings_apply AFTER INSERT ON postings REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_apply_postings();

CREATE CONSTRAINT TRIGGER postings_balanced AFTER INSERT ON postings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_entry();

CREATE TRIGGER postings_reservations AFTER INSERT ON postings REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_reservations();

CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_notify_inserted('ledger_webhook_deliveries');
