import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The one SQS action a consumer calls on its own queue, ChangeMessageVisibility, served
 * over SQS's JSON protocol so the dispatcher's real SDK client talks to it: it notes the
 * delay asked for each receipt handle, and the local queue applies it.
 */
export interface QueueEmulator {
  endpoint: string;
  /** The delay in seconds asked for a received message, taken (once) by its queue. */
  takeVisibility(receiptHandle: string): number | undefined;
  stop(): Promise<void>;
}

export async function startQueueEmulator(host: string): Promise<QueueEmulator> {
  const visibility = new Map<string, number>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const action = String(request.headers['x-amz-target'] ?? '');
      const reply = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify(payload));
      };
      try {
        const input = JSON.parse(body || '{}') as { ReceiptHandle?: string; VisibilityTimeout?: number };
        if (action !== 'AmazonSQS.ChangeMessageVisibility' || !input.ReceiptHandle || typeof input.VisibilityTimeout !== 'number') {
          return reply(400, {
            __type: 'com.amazonaws.sqs#UnsupportedOperation',
            message: `The local SQS emulator serves ChangeMessageVisibility only, not ${action}`,
          });
        }
        visibility.set(input.ReceiptHandle, input.VisibilityTimeout);
        reply(200, {});
      } catch {
        reply(400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'The body is not JSON' });
      }
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  return {
    endpoint: `http://${host}:${(server.address() as AddressInfo).port}`,
    takeVisibility(receiptHandle) {
      const seconds = visibility.get(receiptHandle);
      visibility.delete(receiptHandle);
      return seconds;
    },
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
