import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './metric-names';

/**
 * The process's X-Ray tracer. Powertools turns it off outside Lambda (no AWS_EXECUTION_ENV:
 * `npm start`, jest, the CLI; and under `sam local`), where every call below does nothing.
 * Outgoing HTTP is not traced globally: the AWS clients are traced one by one ({@link traced}),
 * and a webhook endpoint's URL, which may carry its owner's secrets, is kept out of traces.
 */
export const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });

/** An AWS SDK v3 client whose calls appear as subsegments of the invocation's trace; the client itself, unchanged, outside Lambda. */
export function traced<Client>(client: Client): Client {
  return tracer.captureAWSv3Client(client);
}
