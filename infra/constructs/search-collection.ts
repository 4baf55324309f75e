import { Lazy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as aoss from 'aws-cdk-lib/aws-opensearchserverless';
import type { Construct } from 'constructs';
import type { SearchAction } from '../../shared/function-permissions';
import { rootValue } from './route-stack';
import { PASSAGES_ALIAS } from '../../shared/search/passage-mapping';

/**
 * The search collection (docs/search.md): one Amazon OpenSearch Serverless collection of type
 * SEARCH per stage, with its encryption (an AWS-owned key), network (the public endpoint: the
 * functions run outside a VPC, and every request is signed with SigV4) and data access policies.
 * Only the roles granted here (the indexer, the search and ask functions) are principals of the
 * data access policy; there is no master user. Its name: `voice-org-<stage>`, at most 32 characters.
 */
export interface SearchCollection {
  /** The functions' SEARCH_ENDPOINT. */
  readonly endpoint: string;
  /** Grants a function's role the data actions it declares: IAM's aoss:APIAccessAll and a place in the data access policy. */
  grantData(role: iam.IRole, actions: readonly SearchAction[]): void;
}

/** The data access policy's permissions of each declared action, on the passages' indexes. */
const DATA_PERMISSIONS: Record<SearchAction, string[]> = {
  ReadDocument: ['aoss:ReadDocument', 'aoss:DescribeIndex'],
  // The indexer creates the index and its alias on first use, and moves the alias when the mapping changes.
  WriteDocument: ['aoss:WriteDocument', 'aoss:ReadDocument', 'aoss:DescribeIndex', 'aoss:CreateIndex', 'aoss:UpdateIndex'],
};

export function addSearchCollection(scope: Construct, props: { stage: string }): SearchCollection {
  const stack = Stack.of(scope);
  const name = `voice-org-${props.stage.toLowerCase()}`.slice(0, 32);
  const resource = [`collection/${name}`];
  const encryption = new aoss.CfnSecurityPolicy(scope, 'SearchEncryptionPolicy', {
    name: `${name}-enc`.slice(0, 32),
    type: 'encryption',
    policy: JSON.stringify({ Rules: [{ ResourceType: 'collection', Resource: resource }], AWSOwnedKey: true }),
  });
  const network = new aoss.CfnSecurityPolicy(scope, 'SearchNetworkPolicy', {
    name: `${name}-net`.slice(0, 32),
    type: 'network',
    policy: JSON.stringify([{ Rules: [{ ResourceType: 'collection', Resource: resource }], AllowFromPublic: true }]),
  });
  const collection = new aoss.CfnCollection(scope, 'SearchCollection', {
    name,
    type: 'SEARCH',
    description: `Voice Org API (${props.stage}): the passages of the recordings, for Search and Ask`,
  });
  collection.addDependency(encryption);
  collection.addDependency(network);

  const grants = new Map<string, Set<string>>();
  new aoss.CfnAccessPolicy(scope, 'SearchDataAccessPolicy', {
    name: `${name}-data`.slice(0, 32),
    type: 'data',
    policy: Lazy.string({
      produce: () =>
        stack.toJsonString(
          [...grants].map(([principal, permissions]) => ({
            Rules: [
              { ResourceType: 'index', Resource: [`index/${name}/${PASSAGES_ALIAS}*`], Permission: [...permissions] },
              { ResourceType: 'collection', Resource: resource, Permission: ['aoss:DescribeCollectionItems'] },
            ],
            Principal: [principal],
          })),
        ),
    }),
  });

  return {
    endpoint: collection.attrCollectionEndpoint,
    grantData(role, actions) {
      const arn = rootValue(role, 'SearchCollectionArn', collection.attrArn);
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['aoss:APIAccessAll'], resources: [arn] }));
      const permissions = grants.get(role.roleArn) ?? new Set<string>();
      for (const action of actions) for (const permission of DATA_PERMISSIONS[action]) permissions.add(permission);
      grants.set(role.roleArn, permissions);
    },
  };
}
