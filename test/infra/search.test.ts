import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { VoiceOrgStack } from '../../infra/stack';
import { ROUTES } from '../../shared/routes/manifest';
import { actionsOf, functionLogicalId, functionStatements, synth, templatesOf, type Json } from './template';

/**
 * What the stack gives Search and Ask (docs/search.md): with `search: 'opensearch'`, one
 * OpenSearch Serverless collection with its policies, reached only by the functions that
 * declare search permissions, with SigV4; with search off (the default), no collection and no
 * endpoint, so those functions answer SEARCH_NOT_ENABLED.
 */
const SEARCH_FUNCTIONS = [
  ROUTES.searchRecordings.handler,
  ROUTES.searchPublicRecordings.handler,
  ROUTES.askQuestion.handler,
  ROUTES.askPublicQuestion.handler,
  'functions/events/index-recording',
  // The erasure job removes a member's passages and reindexes the recordings whose action items it rewrote.
  'functions/events/run-member-erasure',
];

describe('search on (search=opensearch)', () => {
  const template = synth({ search: 'opensearch' });
  const policyOf = (type: string): Json => {
    const [policy] = Object.values(template.findResources('AWS::OpenSearchServerless::SecurityPolicy', { Properties: { Type: type } }));
    return JSON.parse(policy.Properties.Policy);
  };

  it('has one vector search collection, named after the stage, encrypted and reached over its public endpoint', () => {
    template.resourceCountIs('AWS::OpenSearchServerless::Collection', 1);
    template.hasResourceProperties('AWS::OpenSearchServerless::Collection', { Name: 'voice-org-test-vec', Type: 'VECTORSEARCH' });
    expect(policyOf('encryption')).toEqual({
      Rules: [{ ResourceType: 'collection', Resource: ['collection/voice-org-test-vec'] }],
      AWSOwnedKey: true,
    });
    expect(policyOf('network')).toEqual([
      { Rules: [{ ResourceType: 'collection', Resource: ['collection/voice-org-test-vec'] }], AllowFromPublic: true },
    ]);
  });

  it('lets only the search, ask and indexer functions invoke Titan Text Embeddings V2, and no other model', () => {
    const titan = (id: string) =>
      functionStatements(template, id).filter((statement: Json) => actionsOf(statement).includes('bedrock:InvokeModel'));
    for (const handler of SEARCH_FUNCTIONS) {
      const id = functionLogicalId(template, handler);
      const fn = template.findResources('AWS::Lambda::Function')[id];
      expect(fn.Properties.Environment.Variables.SEARCH_EMBEDDING_MODEL).toBe('amazon.titan-embed-text-v2:0');
      expect(JSON.stringify(titan(id))).toContain('foundation-model/amazon.titan-embed-text-v2:0');
    }
  });

  it('gives SEARCH_ENDPOINT and aoss:APIAccessAll to the search, ask, indexer and erasure functions, and to no other', () => {
    for (const handler of SEARCH_FUNCTIONS) {
      const id = functionLogicalId(template, handler);
      const fn = template.findResources('AWS::Lambda::Function')[id];
      expect(fn.Properties.Environment.Variables.SEARCH_ENDPOINT).toBeDefined();
      expect(functionStatements(template, id).flatMap(actionsOf)).toContain('aoss:APIAccessAll');
    }
    const withEndpoint = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (fn: Json) => fn.Properties.Environment?.Variables?.SEARCH_ENDPOINT !== undefined,
    );
    expect(withEndpoint).toHaveLength(SEARCH_FUNCTIONS.length);
  });

  it('names one data access policy with a rule per granted role: no master user, no wildcard principal', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new VoiceOrgStack(app, 'TestStack', { stage: 'test', search: 'opensearch' });
    const root = templatesOf(stack).root;
    const [policy] = Object.values(root.Resources).filter((r: Json) => r.Type === 'AWS::OpenSearchServerless::AccessPolicy') as Json[];
    expect(policy.Properties.Type).toBe('data');
    const text = JSON.stringify(policy.Properties.Policy);
    expect(text).not.toContain('"Principal":["*"]');
    expect(text).toContain('aoss:WriteDocument');
    expect(Template.fromStack(stack).findResources('AWS::OpenSearchServerless::AccessPolicy')).not.toEqual({});
  });

  it("puts searchAdminPrincipals in the data access policy as writers, for the operator's search reindex and rebuild", () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const admin = 'arn:aws:iam::123456789012:role/Admin';
    const stack = new VoiceOrgStack(app, 'TestStack', { stage: 'test', search: 'opensearch', searchAdminPrincipals: [admin] });
    const [policy] = Object.values(templatesOf(stack).root.Resources).filter(
      (r: Json) => r.Type === 'AWS::OpenSearchServerless::AccessPolicy',
    ) as Json[];
    const text = JSON.stringify(policy.Properties.Policy);
    expect(text).toContain(admin);
    expect(text).toContain('aoss:UpdateCollectionItems');
  });
});

describe('search without embeddings (searchEmbeddings=off)', () => {
  const template = synth({ search: 'opensearch', searchEmbeddings: 'off' });

  it('tells no function an embedding model and grants none', () => {
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')) as Json[])
      expect(fn.Properties.Environment?.Variables?.SEARCH_EMBEDDING_MODEL).toBeUndefined();
    expect(JSON.stringify(template.toJSON())).not.toContain('titan-embed');
  });
});

describe('search off (the default)', () => {
  const template = synth();

  it('has no collection, and no function has SEARCH_ENDPOINT or an aoss grant', () => {
    template.resourceCountIs('AWS::OpenSearchServerless::Collection', 0);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')) as Json[])
      expect(fn.Properties.Environment?.Variables?.SEARCH_ENDPOINT).toBeUndefined();
    expect(JSON.stringify(template.toJSON())).not.toContain('aoss:');
  });
});
