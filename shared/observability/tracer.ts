/**
 * Where each AWS SDK client is created, it is passed through `traced` (the DynamoDB, KMS, S3,
 * SES, SQS, EventBridge and Transcribe clients): the hook of the tracing mode for per-call
 * spans. No tracing SDK is bundled: in the default `lambda` mode an invocation's
 * trace has Lambda's segment and the handler's subsegment (invocation-trace.ts) and no
 * subsegment per AWS call; in the `opentelemetry` mode the ADOT Lambda layer, outside the
 * bundle, instruments the SDK itself. So `traced` returns the client unchanged: it costs
 * nothing, and keeps one place to wrap clients should a mode ever need it.
 */
export function traced<Client>(client: Client): Client {
  return client;
}
