import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { traced } from '../observability/tracer';

/** A Bedrock Runtime client for this function's region (the local stand-in when configured). */
export function createBedrockRuntimeClient(options: { region: string; endpoint?: string }): BedrockRuntimeClient {
  return traced(
    new BedrockRuntimeClient({
      region: options.region,
      endpoint: options.endpoint,
      ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
}
