export { listenTestApp } from '@yieldrouter/api/testing/listenTestApp';
export type { ListeningTestApp } from '@yieldrouter/api/testing/listenTestApp';
