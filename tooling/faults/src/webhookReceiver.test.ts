import { buildTestHeader } from '@yieldrouter/webhooks';
import { startWebhookReceiver } from './webhookReceiver';

const KEY = 'whsec_faults_receiver_test_key_0123456789';

async function deliver(url: string, id: string, key = KEY) {
  const rawBody = JSON.stringify({ id, type: 'position.updated', data: {} });
  const header = await buildTestHeader({ rawBody, key });
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-signature': header },
    body: rawBody,
    signal: AbortSignal.timeout(1000),
  });
}

describe('startWebhookReceiver', () => {
  it('records deliveries with their signature check, and misbehaves on demand', async () => {
    const receiver = await startWebhookReceiver();
    receiver.setKey(KEY);
    try {
      expect((await deliver(receiver.url, 'evt_1')).status).toBe(200);
      expect((await deliver(receiver.url, 'evt_2', 'another key')).status).toBe(200);
      await receiver.setMode('error500');
      expect((await deliver(receiver.url, 'evt_3')).status).toBe(500);
      await receiver.setMode('hang');
      await expect(deliver(receiver.url, 'evt_4')).rejects.toThrow();
      await receiver.setMode('refuse');
      await expect(deliver(receiver.url, 'evt_5')).rejects.toThrow();
      await receiver.setMode('ok');
      expect((await deliver(receiver.url, 'evt_6')).status).toBe(200);
      expect(
        receiver.received.map(({ eventId, answered, signatureValid }) => [
          eventId,
          answered,
          signatureValid,
        ]),
      ).toEqual([
        ['evt_1', 200, true],
        ['evt_2', 200, false],
        ['evt_3', 500, true],
        ['evt_4', 'no answer', true],
        ['evt_6', 200, true],
      ]);
    } finally {
      await receiver.close();
    }
  });
});
