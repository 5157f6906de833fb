export { startTestReceiver } from './testing/startTestReceiver';
export type { ReceivedDelivery, TestReceiver, TestReceiverMode } from './testing/startTestReceiver';
