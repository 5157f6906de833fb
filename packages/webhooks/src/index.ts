export { DEFAULT_TOLERANCE_SECONDS, WEBHOOK_SIGNATURE_HEADER } from './constants';
export { signPayload } from './signPayload';
export type { SignPayloadParameters } from './signPayload';
export { parseSignatureHeader } from './parseSignatureHeader';
export type {
  ParseSignatureHeaderReturnType,
  SignatureHeaderProblem,
} from './parseSignatureHeader';
export { verifyWebhookSignature } from './verifyWebhookSignature';
export type {
  VerifyWebhookSignatureParameters,
  VerifyWebhookSignatureReturnType,
  WebhookVerificationFailureReason,
} from './verifyWebhookSignature';
export { buildTestHeader } from './buildTestHeader';
export type { BuildTestHeaderParameters } from './buildTestHeader';
