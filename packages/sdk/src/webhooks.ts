// `@yieldrouter/sdk/webhooks`: webhook signature helpers, a separate entry point so the core
// client (`@yieldrouter/sdk`) does not carry them. Bundled from the internal
// @yieldrouter/webhooks package; Web Crypto only, no Node built-ins.
export {
  buildTestHeader,
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from '@yieldrouter/webhooks';
export type {
  BuildTestHeaderParameters,
  ParseSignatureHeaderReturnType,
  SignatureHeaderProblem,
  VerifyWebhookSignatureParameters,
  VerifyWebhookSignatureReturnType,
  WebhookVerificationFailureReason,
} from '@yieldrouter/webhooks';
