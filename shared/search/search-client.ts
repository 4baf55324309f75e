import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Client } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import { config } from '../config';
import { createBedrockRuntimeClient } from '../summarization/bedrock-client';
import { OpenSearchIndex } from './opensearch-index';
import { TitanEmbedder } from './titan-embedder';

let index: OpenSearchIndex | undefined;

/**
 * The search collection's index, or undefined when the deployment has no search: one client per
 * warm function, signed with SigV4 for OpenSearch Serverless (`aoss`), unsigned for the local stand-in.
 */
export function searchIndex(): OpenSearchIndex | undefined {
  const search = config().search;
  if (!search) return undefined;
  if (index) return index;
  index = openSearchIndexOf({ ...search, region: config().region });
  return index;
}

export interface SearchConnection {
  endpoint: string;
  signing: 'aoss' | 'none';
  region: string;
  /** Titan Text Embeddings V2 for semantic and hybrid search; absent: keyword search only. */
  embeddingModel?: NonNullable<ReturnType<typeof config>['search']>['embeddingModel'];
  /** A stand-in of Bedrock Runtime (tests); absent: the Region's endpoint. */
  bedrockEndpoint?: string;
}

/** An index on a collection's endpoint: SigV4-signed for OpenSearch Serverless, unsigned for the local stand-in. */
export function openSearchIndexOf(options: SearchConnection): OpenSearchIndex {
  const signer =
    options.signing === 'aoss' ? AwsSigv4Signer({ region: options.region, service: 'aoss', getCredentials: defaultProvider() }) : {};
  const embedder = options.embeddingModel
    ? new TitanEmbedder(createBedrockRuntimeClient({ region: options.region, endpoint: options.bedrockEndpoint }))
    : undefined;
  return new OpenSearchIndex(new Client({ ...signer, node: options.endpoint }), embedder);
}
