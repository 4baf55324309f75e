import { Lazy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as aoss from 'aws-cdk-lib/aws-opensearchserverless';
import type { Construct } from 'constructs';
import type { SearchAction } from '../../shared/function-permissions';
import { rootValue } from './route-stack';
import { PASSAGES_ALIAS } from '../../shared/search/passage-mapping';
import { TITAN_EMBED_TEXT_V2 } from '../../shared/search/titan-embedder';

/**
 * The search collection (docs/search.md): one Amazon OpenSearch Serverless collection of type
 * VECTORSEARCH per stage, with its encryption (an AWS-owned key), network (the public endpoint: the
 * functions run outside a VPC, and every request is signed with SigV4) and data access policies.
 * Only the roles granted here (the indexer, the search and ask functions) are principals of the
 * data access policy; there is no master user. Its name: `voice-org-<stage>-vec`, at most 32 characters.
 */
export interface SearchCollection {
  /** The functions' SEARCH_ENDPOINT. */
  readonly endpoint: string;
  /** What a function that reaches the collection is told: SEARCH_ENDPOINT, and SEARCH_EMBEDDING_MODEL with embeddings. */
  readonly environment: Record<string, string>;
  /** Grants a function's role the data actions it declares: IAM's aoss:APIAccessAll and a place in the data access policy. */
  grantData(role: iam.IRole, actions: readonly SearchAction[]): void;
}

/** The data access policy's permissions of each declared action, on the passages' indexes. */
const DATA_PERMISSIONS: Record<SearchAction, string[]> = {
  ReadDocument: ['aoss:ReadDocument', 'aoss:DescribeIndex'],
  // The indexer creates the index and its alias on first use; `search rebuild` creates the next one, moves the alias and deletes the old.
  WriteDocument: [
    'aoss:WriteDocument',
    'aoss:ReadDocument',
    'aoss:DescribeIndex',
    'aoss:CreateIndex',
    'aoss:UpdateIndex',
    'aoss:DeleteIndex',
  ],
};

/** The collection-level permissions (aliases are collection items): reading the alias, and for writers creating and moving it. */
const COLLECTION_PERMISSIONS: Record<SearchAction, string[]> = {
  ReadDocument: ['aoss:DescribeCollectionItems'],
  WriteDocument: ['aoss:DescribeCollectionItems', 'aoss:CreateCollectionItems', 'aoss:UpdateCollectionItems'],
};

export function addSearchCollection(
  scope: Construct,
  props: { stage: string; embeddings: boolean; adminPrincipals?: readonly string[] },
): SearchCollection {
  const stack = Stack.of(scope);
  // A vector search collection: keyword fields and vectors in one index, for hybrid search. Its
  // name differs from the keyword-only SEARCH collection's of earlier versions, so that an
  // upgrade creates it beside the old one (a type change replaces a collection).
  const base = `voice-org-${props.stage.toLowerCase()}`;
  const name = `${base.slice(0, 28)}-vec`;
  const resource = [`collection/${name}`];
  const encryption = new aoss.CfnSecurityPolicy(scope, 'SearchEncryptionPolicy', {
    name: `${base.slice(0, 27)}-enc`,
    type: 'encryption',
    policy: JSON.stringify({ Rules: [{ ResourceType: 'collection', Resource: resource }], AWSOwnedKey: true }),
  });
  const network = new aoss.CfnSecurityPolicy(scope, 'SearchNetworkPolicy', {
    name: `${base.slice(0, 27)}-net`,
    type: 'network',
    policy: JSON.stringify([{ Rules: [{ ResourceType: 'collection', Resource: resource }], AllowFromPublic: true }]),
  });
  const collection = new aoss.CfnCollection(scope, 'SearchCollection', {
    name,
    type: 'VECTORSEARCH',
    description: `Voice Org API (${props.stage}): the passages of the recordings, for Search and Ask`,
  });
  collection.addResourceDependency(encryption);
  collection.addResourceDependency(network);

  const grants = new Map<string, { index: Set<string>; collection: Set<string> }>();
  const grant = (principal: string, actions: readonly SearchAction[]) => {
    const permissions = grants.get(principal) ?? { index: new Set<string>(), collection: new Set<string>() };
    for (const action of actions) {
      DATA_PERMISSIONS[action].forEach((permission) => permissions.index.add(permission));
      COLLECTION_PERMISSIONS[action].forEach((permission) => permissions.collection.add(permission));
    }
    grants.set(principal, permissions);
  };
  // The operators who run `search reindex` and `search rebuild` against the stack (-c searchAdminPrincipals).
  for (const principal of props.adminPrincipals ?? []) grant(principal, ['WriteDocument']);
  new aoss.CfnAccessPolicy(scope, 'SearchDataAccessPolicy', {
    name: `${base.slice(0, 27)}-data`,
    type: 'data',
    policy: Lazy.string({
      produce: () =>
        stack.toJsonString(
          [...grants].map(([principal, permissions]) => ({
            Rules: [
              { ResourceType: 'index', Resource: [`index/${name}/${PASSAGES_ALIAS}*`], Permission: [...permissions.index] },
              { ResourceType: 'collection', Resource: resource, Permission: [...permissions.collection] },
            ],
            Principal: [principal],
          })),
        ),
    }),
  });

  const embeddingModel = stack.formatArn({
    service: 'bedrock',
    account: '',
    resource: 'foundation-model',
    resourceName: TITAN_EMBED_TEXT_V2,
  });
  return {
    endpoint: collection.attrCollectionEndpoint,
    environment: {
      SEARCH_ENDPOINT: collection.attrCollectionEndpoint,
      ...(props.embeddings ? { SEARCH_EMBEDDING_MODEL: TITAN_EMBED_TEXT_V2 } : {}),
    },
    grantData(role, actions) {
      const arn = rootValue(role, 'SearchCollectionArn', collection.attrArn);
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['aoss:APIAccessAll'], resources: [arn] }));
      // The indexer embeds passages; search and ask embed the query: the one model, on demand in this Region.
      if (props.embeddings)
        role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [embeddingModel] }));
      grant(role.roleArn, actions);
    },
  };
}
