-- CHECK constraints that list values, written as one array constant.
--
-- PostgreSQL reads a table's CHECK expressions from their stored node text, and plans them, at
-- the start of every INSERT or UPDATE statement on it; that set-up, not the rows, was most of
-- the cost of a one-row write to plans, plan_legs and ledger_accounts. `x IN ('a', 'b')` is
-- stored as an ARRAY[...] of one constant node per value (about 150 bytes of node text each,
-- folded again by the planner every time); `x = ANY ('{a,b}'::text[])` is one constant.
-- Same rules, same names, fewer bytes to read: a settlement or a plan statement does less work
-- before its first row. New lists are written the compact way (`schemaConventions.test.ts`).
ALTER TABLE "plans"
  DROP CONSTRAINT "plans_kind_check",
  ADD CONSTRAINT "plans_kind_check" CHECK ("kind" = ANY (
    '{deposit,withdraw,route,exit,swap,rebalance,auto_pay,gas_sponsor,bridge}'::text[])),
  DROP CONSTRAINT "plans_swap_shape",
  ADD CONSTRAINT "plans_swap_shape" CHECK (
    ("kind" = 'swap') = ("swap" IS NOT NULL) OR "kind" = 'gas_sponsor'
    OR ("kind" = ANY ('{route,deposit}'::text[]) AND "swap" IS NOT NULL)),
  DROP CONSTRAINT "plans_chain_check",
  ADD CONSTRAINT "plans_chain_check" CHECK ("chain" = ANY ('{sui,solana,base,arbitrum}'::text[])),
  DROP CONSTRAINT "plans_status_check",
  ADD CONSTRAINT "plans_status_check" CHECK ("status" = ANY ('{prepared,blocked}'::text[]));

ALTER TABLE "plan_legs"
  DROP CONSTRAINT "plan_legs_effect_check",
  ADD CONSTRAINT "plan_legs_effect_check" CHECK ("effect" = ANY (
    '{none,fund_liquid,fund_staked,stake,unstake,exit_liquid,swap,rebalance_out,rebalance_in,unstake_yield,pay_out,bridge_burn,unwrap,bridge_fee,bridged_stake}'::text[])),
  DROP CONSTRAINT "plan_legs_status_check",
  ADD CONSTRAINT "plan_legs_status_check" CHECK ("status" = ANY (
    '{unsigned,submitted,confirmed,failed,expired,cancelled}'::text[])),
  DROP CONSTRAINT "plan_legs_chain_check",
  ADD CONSTRAINT "plan_legs_chain_check" CHECK ("chain" = ANY ('{sui,solana,base,arbitrum}'::text[])),
  DROP CONSTRAINT "plan_legs_released_shape",
  ADD CONSTRAINT "plan_legs_released_shape" CHECK (
    "status" <> ALL ('{expired,cancelled}'::text[]) OR "released_at" IS NOT NULL);

ALTER TABLE "bridge_transfers"
  DROP CONSTRAINT "bridge_transfers_check",
  ADD CONSTRAINT "bridge_transfers_check" CHECK (
    "dest_chain" = ANY ('{sui,solana,base,arbitrum}'::text[]) AND "dest_chain" <> "source_chain"),
  DROP CONSTRAINT "bridge_transfers_source_chain_check",
  ADD CONSTRAINT "bridge_transfers_source_chain_check" CHECK (
    "source_chain" = ANY ('{sui,solana,base,arbitrum}'::text[])),
  DROP CONSTRAINT "bridge_transfers_speed_check",
  ADD CONSTRAINT "bridge_transfers_speed_check" CHECK ("speed" = ANY ('{standard,fast}'::text[]));

ALTER TABLE "ledger_accounts"
  DROP CONSTRAINT "ledger_accounts_chain_check",
  ADD CONSTRAINT "ledger_accounts_chain_check" CHECK (
    "chain" = ANY ('{sui,solana,base,arbitrum,all}'::text[])),
  DROP CONSTRAINT "ledger_accounts_kind_check",
  ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("kind" = ANY ('{wallet,system}'::text[])),
  DROP CONSTRAINT "ledger_accounts_check",
  ADD CONSTRAINT "ledger_accounts_check" CHECK (
    "bucket" ~ '^(liquid|pending_in|pending_out|in_flight|staked:svcop[0-9a-f]{24})$'
    OR ("kind" = 'system' AND "bucket" = ANY ('{external,fees:protocol}'::text[]))
    OR ("kind" = 'wallet' AND "bucket" = 'auto_pay')
    OR ("bucket" !~ '@USDC$' AND (
      ("kind" = 'wallet' AND "bucket" ~ '^liquid@[0-9A-Za-z:_]{1,200}$')
      OR ("kind" = 'system' AND "bucket" ~ '^(external|fees:protocol)@[0-9A-Za-z:_]{1,200}$'))));

ALTER TABLE "outbox_events"
  DROP CONSTRAINT "outbox_events_type_check",
  ADD CONSTRAINT "outbox_events_type_check" CHECK ("type" = ANY (
    '{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid}'::text[]));

ALTER TABLE "idempotency_keys"
  DROP CONSTRAINT "idempotency_keys_state_check",
  ADD CONSTRAINT "idempotency_keys_state_check" CHECK (
    "state" = ANY ('{in_progress,completed}'::text[]));

ALTER TABLE "webhook_deliveries"
  DROP CONSTRAINT "webhook_deliveries_status_check",
  ADD CONSTRAINT "webhook_deliveries_status_check" CHECK (
    "status" = ANY ('{pending,delivered,failed}'::text[]));

-- 1 to 8 of the first eight types, or 1 to 9 of all nine: the second holds whenever the first
-- does, so it is the rule.
ALTER TABLE "webhook_subscriptions"
  DROP CONSTRAINT "webhook_subscriptions_event_types_check",
  ADD CONSTRAINT "webhook_subscriptions_event_types_check" CHECK (
    cardinality("event_types") BETWEEN 1 AND 9 AND "event_types" <@
    '{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid}'::text[]);

ALTER TABLE "audit_events"
  DROP CONSTRAINT "audit_events_actor_role_check",
  ADD CONSTRAINT "audit_events_actor_role_check" CHECK (
    "actor_role" = ANY ('{owner,agent,keeper,public}'::text[])),
  DROP CONSTRAINT "audit_events_method_check",
  ADD CONSTRAINT "audit_events_method_check" CHECK ("method" = ANY ('{POST,PUT,DELETE}'::text[])),
  DROP CONSTRAINT "audit_events_outcome_check",
  ADD CONSTRAINT "audit_events_outcome_check" CHECK (
    "outcome" = ANY ('{ok,blocked,refused}'::text[]));

ALTER TABLE "harvests"
  DROP CONSTRAINT "harvests_chain_check",
  ADD CONSTRAINT "harvests_chain_check" CHECK ("chain" = ANY ('{sui,solana,base,arbitrum}'::text[]));

ALTER TABLE "positions"
  DROP CONSTRAINT "positions_chain_check",
  ADD CONSTRAINT "positions_chain_check" CHECK ("chain" = ANY ('{sui,solana,base,arbitrum}'::text[]));

ALTER TABLE "auto_pay_yield"
  DROP CONSTRAINT "auto_pay_yield_chain_check",
  ADD CONSTRAINT "auto_pay_yield_chain_check" CHECK (
    "chain" = ANY ('{sui,solana,base,arbitrum}'::text[]));

ALTER TABLE "auto_pay_configs"
  DROP CONSTRAINT "auto_pay_configs_trigger_check",
  ADD CONSTRAINT "auto_pay_configs_trigger_check" CHECK (
    "trigger" = ANY ('{after_harvest,manual,threshold}'::text[]));

ALTER TABLE "apy_samples"
  DROP CONSTRAINT "apy_samples_status_check",
  ADD CONSTRAINT "apy_samples_status_check" CHECK ("status" = ANY ('{ok,unavailable}'::text[]));

ALTER TABLE "autopilot_decisions"
  DROP CONSTRAINT "autopilot_decisions_chain_check",
  ADD CONSTRAINT "autopilot_decisions_chain_check" CHECK ("chain" = ANY ('{sui,solana}'::text[])),
  DROP CONSTRAINT "autopilot_decisions_kind_check",
  ADD CONSTRAINT "autopilot_decisions_kind_check" CHECK (
    "kind" = ANY ('{tick,preview,decide}'::text[])),
  DROP CONSTRAINT "autopilot_decisions_outcome_check",
  ADD CONSTRAINT "autopilot_decisions_outcome_check" CHECK (
    "outcome" = ANY ('{hold,switch,blocked}'::text[]));

ALTER TABLE "autopilot_policies"
  DROP CONSTRAINT "autopilot_policies_cadence_check",
  ADD CONSTRAINT "autopilot_policies_cadence_check" CHECK (
    "cadence" = ANY ('{daily,weekly,monthly}'::text[])),
  DROP CONSTRAINT "autopilot_policies_chain_check",
  ADD CONSTRAINT "autopilot_policies_chain_check" CHECK ("chain" = ANY ('{sui,solana}'::text[]));

ALTER TABLE "reconciliation_drifts"
  DROP CONSTRAINT "reconciliation_drifts_chain_check",
  ADD CONSTRAINT "reconciliation_drifts_chain_check" CHECK (
    "chain" = ANY ('{sui,solana,base,arbitrum}'::text[])),
  DROP CONSTRAINT "reconciliation_drifts_kind_check",
  ADD CONSTRAINT "reconciliation_drifts_kind_check" CHECK (
    "kind" = ANY ('{untracked,shares_missing,value_below_books,reservation_without_leg}'::text[]));

ALTER TABLE "reconciliation_runs"
  DROP CONSTRAINT "reconciliation_runs_trigger_check",
  ADD CONSTRAINT "reconciliation_runs_trigger_check" CHECK (
    "trigger" = ANY ('{schedule,manual,cli}'::text[]));

ALTER TABLE "venues"
  DROP CONSTRAINT "venues_chain_check",
  ADD CONSTRAINT "venues_chain_check" CHECK ("chain" = ANY ('{sui,solana,base,arbitrum}'::text[])),
  DROP CONSTRAINT "venues_readiness_check",
  ADD CONSTRAINT "venues_readiness_check" CHECK (
    "readiness" = ANY ('{ready,listed,planned}'::text[]));

ALTER TABLE "wallet_guardrails"
  DROP CONSTRAINT "wallet_guardrails_allowed_chains_check",
  ADD CONSTRAINT "wallet_guardrails_allowed_chains_check" CHECK (
    "allowed_chains" IS NULL OR "allowed_chains" <@ '{sui,solana,base,arbitrum}'::text[]);
