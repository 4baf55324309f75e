import { App } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { Template } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { stackPropsFromContext } from '../../infra/context';
import { RouteStack } from '../../infra/constructs/route-stack';
import { SINGLE_STACK_ROUTE_FUNCTIONS } from '../../infra/constructs/upgrade';
import { listFunctions, type FunctionDefinition } from '../../infra/function-list';
import { listRouteAreas, placePaths } from '../../infra/route-areas';
import { VoiceOrgStack, type VoiceOrgStackProps } from '../../infra/stack';
import { listEndpoints, ROUTE_PLACES, ROUTES, type RouteName } from '../../shared/routes/manifest';
import type { Endpoint } from '../../shared/routes/route-definition';
import SINGLE_STACK from './fixtures/single-stack.json';
import { EACH_ENVIRONMENT, propsIn } from './environments';
import { functionLogicalId, functionStatements, templatesOf, wholeStack, type Json } from './template';

/**
 * The route stacks (docs/architecture.md, "Route stacks"): one nested stack per route area of the
 * manifest, every template with headroom under CloudFormation's 500 resources, a RestApi deployment
 * that follows every nested change, nothing else changed since the single stack (captured
 * in fixtures/single-stack.json), and the first deploy of the upgrade from it (docs/deploy.md).
 */

/** A template may hold 500 resources; each keeps 40% of them free for the features to come. */
const MAX_RESOURCES_PER_TEMPLATE = 300;

function build(props: Partial<VoiceOrgStackProps> = {}): VoiceOrgStack {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return new VoiceOrgStack(app, 'TestStack', { stage: 'test', ...props });
}

const resourcesOfType = (template: Json, type: string): [string, Json][] =>
  Object.entries<Json>(template.Resources).filter(([, r]) => r.Type === type);
const deploymentIdOf = (root: Json): string => {
  const ids = resourcesOfType(root, 'AWS::ApiGateway::Deployment').map(([id]) => id);
  expect(ids).toHaveLength(1);
  return ids[0];
};
/** The Lambda functions built from handler modules: all but the one CDK adds for the bucket's notifications. */
const functionIdsOf = (template: Json): string[] =>
  resourcesOfType(template, 'AWS::Lambda::Function')
    .map(([id]) => id)
    .filter((id) => !id.startsWith('BucketNotificationsHandler'));
const routeStackOf = (stack: VoiceOrgStack, area: string): RouteStack => stack.routeStacks.find((s) => s.area === area)!;

describe.each(EACH_ENVIRONMENT)('route stacks (%s)', (_name, environment) => {
  let stack: VoiceOrgStack;
  let templates: ReturnType<typeof templatesOf>;

  beforeAll(() => {
    stack = build(propsIn(environment));
    templates = templatesOf(stack);
  });

  it(`keeps every template, the root's and each route stack's, at most ${MAX_RESOURCES_PER_TEMPLATE} resources`, () => {
    const counts = [
      { template: 'root', resources: Object.keys(templates.root.Resources).length },
      ...templates.nested.map((n) => ({ template: n.area, resources: Object.keys(n.template.Resources).length })),
    ];
    for (const count of counts)
      expect({ ...count, withinLimit: count.resources <= MAX_RESOURCES_PER_TEMPLATE }).toEqual({ ...count, withinLimit: true });
  });

  it('has one nested stack per route area of the manifest but /health, each with its functions, methods and own path resources', () => {
    const areas = listRouteAreas();
    const placement = placePaths(areas);
    expect(templates.nested.map((n) => n.area)).toEqual(areas.filter((a) => !a.inRoot).map((a) => a.area));
    for (const area of areas.filter((a) => !a.inRoot)) {
      const template = Template.fromJSON(templates.nested.find((n) => n.area === area.area)!.template);
      const functionIds = area.functions.map((f) => functionLogicalId(template, f.handler));
      expect(Object.keys(template.findResources('AWS::Lambda::Function')).sort()).toEqual(functionIds.sort());
      const ownPaths = new Set(
        area.endpoints
          .flatMap((e) =>
            e.path
              .split('/')
              .filter(Boolean)
              .map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`),
          )
          .filter((p) => placement.areaOfPath(p) === area.area),
      );
      const preflights = new Set(area.endpoints.map((e) => e.path).filter((p) => ownPaths.has(p)));
      expect({ area: area.area, resources: Object.keys(template.findResources('AWS::ApiGateway::Resource')).length }).toEqual({
        area: area.area,
        resources: ownPaths.size,
      });
      expect({ area: area.area, methods: Object.keys(template.findResources('AWS::ApiGateway::Method')).length }).toEqual({
        area: area.area,
        methods: area.endpoints.length + preflights.size,
      });
    }
  });

  it("keeps in the root stack the authorizer's, /health's and the event functions, the shared paths and /health's methods", () => {
    const root = Template.fromJSON(templates.root);
    const inRoot = listFunctions().filter((f) => f.kind !== 'http' || f.handler === 'functions/health/health');
    expect(functionIdsOf(templates.root).sort()).toEqual(inRoot.map((f) => functionLogicalId(root, f.handler)).sort());
    expect(
      resourcesOfType(templates.root, 'AWS::ApiGateway::Method')
        .map(([, m]) => m.Properties.HttpMethod)
        .sort(),
    ).toEqual(['GET', 'OPTIONS']);
    expect(resourcesOfType(templates.root, 'AWS::ApiGateway::Resource').map(([, r]) => r.Properties.PathPart)).toEqual([
      'health',
      'api',
      'v1',
      'organization',
      '{orgId}',
      'public',
    ]);
  });

  it("has each route stack read the root stack's values as parameters the root sets, and give back only its functions' names", () => {
    for (const { area, logicalId, template } of templates.nested) {
      const given = templates.root.Resources[logicalId].Properties.Parameters;
      expect({ area, parameters: Object.keys(template.Parameters).sort() }).toEqual({ area, parameters: Object.keys(given).sort() });
      const outputs = Object.values<Json>(template.Outputs);
      expect({ area, outputs: outputs.length }).toEqual({ area, outputs: resourcesOfType(template, 'AWS::Lambda::Function').length });
      for (const output of outputs) expect(template.Resources[output.Value.Ref]?.Type).toBe('AWS::Lambda::Function');
    }
  });

  it('makes the root stack deploy the RestApi only after every route stack', () => {
    const [, deployment] = resourcesOfType(templates.root, 'AWS::ApiGateway::Deployment')[0];
    expect(deployment.DependsOn).toEqual(expect.arrayContaining(templates.nested.map((n) => n.logicalId)));
  });

  it("puts a new route in its declared stack's area: a new stack name is a new area (and nested stack) of its own", () => {
    const template = ROUTES.listTemplates;
    const copy: Endpoint<RouteName> = {
      ...listEndpoints().find((e) => e.routeName === 'listTemplates')!,
      path: '/api/v1/organization/{orgId}/template-copies',
    };
    const newHandler = { ...template, handler: 'functions/transcripts/list-transcripts' };
    const transcripts: Endpoint<RouteName> = { ...copy, path: '/api/v1/organization/{orgId}/transcripts', route: newHandler };
    const functions: FunctionDefinition[] = [
      ...listFunctions(),
      { handler: newHandler.handler, name: 'transcripts/list-transcripts', kind: 'http', permissions: template.permissions },
    ];
    // The new route's area declares a stack of its own; the copy's is the templates'.
    const stackOf = (endpoint: Endpoint<RouteName>) =>
      endpoint.path === transcripts.path ? 'transcripts' : ROUTE_PLACES[endpoint.routeName].stack;
    const areas = listRouteAreas([...listEndpoints(), copy, transcripts], functions, stackOf);
    expect(areas.find((a) => a.area === 'templates')!.endpoints).toContainEqual(copy);
    expect(areas.find((a) => a.area === 'transcripts')).toMatchObject({
      inRoot: false,
      endpoints: [transcripts],
      functions: [{ handler: newHandler.handler }],
    });
    expect(placePaths(areas).areaOfPath('/api/v1/organization/{orgId}/transcripts')).toBe('transcripts');
  });
});

describe.each(EACH_ENVIRONMENT.filter(([name]) => ['environment-agnostic', 'eu-west-1'].includes(name)))(
  "the RestApi deployment's logical id (%s)",
  (_name, environment) => {
    const deploymentId = (change?: (stack: VoiceOrgStack) => void): string => {
      const stack = build(propsIn(environment));
      change?.(stack);
      return deploymentIdOf(Template.fromStack(stack).toJSON());
    };
    let unchanged: string;

    beforeAll(() => {
      unchanged = deploymentId();
    });

    it('stays the same for the same synth (no timestamp, nothing random)', () => {
      expect(deploymentId()).toBe(unchanged);
    });

    it('changes when a route stack gets a new method', () => {
      const changed = deploymentId((stack) => {
        const api = routeStackOf(stack, 'templates').node.findChild('Api') as apigateway.IRestApi;
        api.root.addResource('extra').addMethod('GET', new apigateway.MockIntegration());
      });
      expect(changed).not.toBe(unchanged);
    });

    it("changes when a route stack's function changes (its integration's target)", () => {
      const changed = deploymentId((stack) => {
        (routeStackOf(stack, 'webhooks').node.findChild('WebhooksListWebhooksFunction') as lambda.Function).addEnvironment('EXTRA', '1');
      });
      expect(changed).not.toBe(unchanged);
    });
  },
);

/**
 * What transcription, summaries, translations and search added since the single stack: its functions, and the resources whose
 * logical ids begin with their construct ids (each function's log group, role, policy, event
 * source; each consumer's queues, rules and alarm; the sweeper's schedule). The comparisons
 * below leave these out, and the first one checks there is nothing else new.
 */
const ADDED_SINCE_SINGLE_STACK = {
  functions: [
    'functions/events/finish-transcription-job',
    'functions/events/queue-summary-on-transcription',
    'functions/events/queue-transcription-on-upload',
    'functions/events/start-transcription-job',
    'functions/events/sweep-transcriptions',
    'functions/events/write-summary',
    'functions/recordings/create-public-summary',
    'functions/recordings/create-summary',
    'functions/recordings/delete-summary',
    'functions/recordings/get-public-transcript',
    'functions/recordings/get-summary',
    'functions/recordings/get-transcript',
    'functions/recordings/list-public-summaries',
    'functions/recordings/list-summaries',
    'functions/recordings/transcribe-public-recording',
    'functions/recordings/transcribe-recording',
    'functions/recordings/update-action-item',
    'functions/usage/get-usage',
    // Translations.
    'functions/events/run-translation',
    'functions/recordings/translate-public-recording',
    'functions/recordings/translate-recording',
    // Search and ask.
    'functions/events/index-recording',
    'functions/search/search-recordings',
    'functions/search/search-public-recordings',
    'functions/search/ask-question',
    'functions/search/ask-public-question',
    // Governance: retention, legal holds, export and erasure.
    'functions/events/sweep-retention',
    'functions/events/run-member-export',
    'functions/events/run-member-erasure',
    'functions/users/get-retention',
    'functions/users/update-retention',
    'functions/users/place-member-legal-hold',
    'functions/users/release-member-legal-hold',
    'functions/users/create-member-export',
    'functions/users/get-member-export',
    'functions/users/erase-member',
    'functions/users/get-member-erasure',
    'functions/recordings/place-recording-legal-hold',
    'functions/recordings/release-recording-legal-hold',
    // Transcript controls: speakers, vocabulary, redaction.
    'functions/events/sync-vocabulary',
    'functions/recordings/update-recording-speakers',
    'functions/recordings/update-public-recording-speakers',
    'functions/users/get-vocabulary',
    'functions/users/update-vocabulary',
    'functions/users/get-redaction',
    'functions/users/update-redaction',
  ],
  idPrefixes: [
    'EventsFinishTranscriptionJob',
    'EventsQueueTranscriptionOnUpload',
    'EventsStartTranscriptionJob',
    'EventsSweepTranscriptions',
    'RecordingsGetPublicTranscript',
    'RecordingsGetTranscript',
    'RecordingsTranscribePublicRecording',
    'RecordingsTranscribeRecording',
    'UsageGetUsage',
    'AutoTranscription',
    'TranscriptionStart',
    'TranscriptionFinish',
    'TranscriptionSweeper',
    'EventsQueueSummaryOnTranscription',
    'EventsWriteSummary',
    'RecordingsCreatePublicSummary',
    'RecordingsCreateSummary',
    'RecordingsDeleteSummary',
    'RecordingsGetSummary',
    'RecordingsListPublicSummaries',
    'RecordingsListSummaries',
    'RecordingsUpdateActionItem',
    'AutoSummary',
    'SummaryRun',
    'EventsRunTranslation',
    'RecordingsTranslatePublicRecording',
    'RecordingsTranslateRecording',
    'Translation',
    'EventsIndexRecording',
    'IndexRecording',
    'SearchSearchRecordings',
    'SearchSearchPublicRecordings',
    'SearchAskQuestion',
    'SearchAskPublicQuestion',
    'EventsSweepRetention',
    'RetentionSweeper',
    'EventsRunMemberExport',
    'RunMemberExport',
    'EventsRunMemberErasure',
    'RunMemberErasure',
    'UsersGetRetention',
    'UsersUpdateRetention',
    'UsersPlaceMemberLegalHold',
    'UsersReleaseMemberLegalHold',
    'UsersCreateMemberExport',
    'UsersGetMemberExport',
    'UsersEraseMember',
    'UsersGetMemberErasure',
    'RecordingsPlaceRecordingLegalHold',
    'RecordingsReleaseRecordingLegalHold',
    'EventsSyncVocabulary',
    'SyncVocabulary',
    'RecordingsUpdateRecordingSpeakers',
    'RecordingsUpdatePublicRecordingSpeakers',
    'UsersGetVocabulary',
    'UsersUpdateVocabulary',
    'UsersGetRedaction',
    'UsersUpdateRedaction',
  ],
};
/**
 * Table actions granted since, on purpose: the template writes commit transactions whose entries
 * each need their own action in IAM (docs/decisions.md, "Default template").
 */
const TABLE_ACTIONS_SINCE_SINGLE_STACK: Record<string, string[]> = {
  'functions/templates/create-template': ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
  'functions/templates/update-template': ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
  'functions/templates/delete-template': ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
};
/** The statements with the table's statement (the one with Query: not the idempotency table's) holding `actions` instead (unchanged without them). */
function withTableActions(statements: Json[], actions: string[] | undefined): Json[] {
  if (!actions) return statements;
  return statements.map((statement) =>
    Array.isArray(statement.Action) && statement.Action.includes('dynamodb:Query')
      ? { ...statement, Action: actions.map((action) => `dynamodb:${action}`) }
      : statement,
  );
}
/**
 * Bucket actions granted since, on purpose: the upload completion removes a file that lands for a
 * recording deleted for good (docs/governance.md, "URLs made unusable").
 */
const BUCKET_ACTIONS_SINCE_SINGLE_STACK: Record<string, string[]> = {
  'functions/recordings/complete-upload': ['s3:GetObject', 's3:DeleteObject'],
};
/** The statements with the bucket's object statement (its one action then) holding `actions` instead (unchanged without them). */
function withBucketActions(statements: Json[], actions: string[] | undefined): Json[] {
  if (!actions) return statements;
  return statements.map((statement) => (statement.Action === actions[0] ? { ...statement, Action: actions } : statement));
}
const isAddedSince = (logicalId: string) => ADDED_SINCE_SINGLE_STACK.idPrefixes.some((prefix) => logicalId.startsWith(prefix));
/** The alarms over groups of functions (observability.ts groups them, a few per alarm): more functions regroup them. */
const isGroupAlarm = (logicalId: string) => /^(LambdaThrottles|LambdaErrors|RouteLatencyP99)Alarm/.test(logicalId);
const isAddedRoute = (logicalId: string) =>
  /Transcri|Translat|Usage|Summar|ActionItem|OrgIdsearch|OrgIdask|Publicsearch|Publicask|retention|legalhold|exports|erasure|speakers|vocabulary|redaction/.test(
    logicalId,
  ) || isGroupAlarm(logicalId);

// The single stack was captured environment-agnostic: its ARNs hold <AWS::Region>, so the comparison is made in that environment.
describe('nothing else changes: the stack as one template, compared with the single stack captured in the fixture', () => {
  let whole: Template;
  let resources: Record<string, Json>;

  beforeAll(() => {
    whole = wholeStack(build());
    resources = whole.toJSON().Resources;
  });

  it.each(Object.keys(SINGLE_STACK.functions))("%s keeps its logical id, its role's statements and its environment", (handler) => {
    const before = SINGLE_STACK.functions[handler as keyof typeof SINGLE_STACK.functions];
    const logicalId = functionLogicalId(whole, handler);
    expect(logicalId).toBe(before.logicalId);
    expect(functionStatements(whole, logicalId)).toEqual(
      withBucketActions(
        withTableActions(before.statements as Json[], TABLE_ACTIONS_SINCE_SINGLE_STACK[handler]),
        BUCKET_ACTIONS_SINCE_SINGLE_STACK[handler],
      ),
    );
    // TRACING (the tracing mode) is new on every function since.
    const { TRACING, ...environment } = resources[logicalId].Properties.Environment?.Variables ?? {};
    expect({ TRACING, environment }).toEqual({ TRACING: 'lambda', environment: before.environment });
  });

  it("the first deploy of the upgrade keeps exactly the single stack's route functions (SINGLE_STACK_ROUTE_FUNCTIONS)", () => {
    const nested = new Set(
      listRouteAreas()
        .filter((area) => !area.inRoot)
        .flatMap((area) => area.functions.map((f) => f.name)),
    );
    // The single stack's functions by their module then, which is their deployed name under functions/.
    expect([...SINGLE_STACK_ROUTE_FUNCTIONS].sort()).toEqual(
      Object.keys(SINGLE_STACK.functions)
        .map((handler) => handler.replace(/^functions\//, ''))
        .filter((name) => nested.has(name))
        .sort(),
    );
  });

  it('serves the same functions, none gone: only those transcription, summaries, translations, search and governance added are new', () => {
    expect(
      listFunctions()
        .map((f) => `functions/${f.name}`)
        .sort(),
    ).toEqual([...Object.keys(SINGLE_STACK.functions), ...ADDED_SINCE_SINGLE_STACK.functions].sort());
  });

  it('keeps the alarms and the outputs as they were (the dashboard and the alarms over groups of functions grew with the functions)', () => {
    const alarms = Object.entries(whole.findResources('AWS::CloudWatch::Alarm'));
    const unchanged = (id: string) => !isAddedSince(id) && !isAddedRoute(id);
    expect(Object.fromEntries(alarms.filter(([id]) => unchanged(id)).map(([id, r]) => [id, r.Properties]))).toEqual(
      Object.fromEntries(Object.entries(SINGLE_STACK.alarms).filter(([id]) => unchanged(id))),
    );
    expect(whole.toJSON().Outputs).toEqual(SINGLE_STACK.outputs);
  });

  it("keeps every other resource's logical id: only the route areas' path resources, methods and invoke permissions are new ones (in their stacks), and the deployment", () => {
    const before: Record<string, string> = SINGLE_STACK.resources;
    const renamedTypes = ['AWS::ApiGateway::Resource', 'AWS::ApiGateway::Method', 'AWS::Lambda::Permission', 'AWS::ApiGateway::Deployment'];
    const gone = Object.keys(before).filter((id) => !(id in resources));
    const added = Object.keys(resources).filter((id) => !(id in before) && !isAddedSince(id) && !isGroupAlarm(id));
    expect(gone.filter((id) => !renamedTypes.includes(before[id]))).toEqual([]);
    expect(added.filter((id) => !renamedTypes.includes(resources[id].Type))).toEqual([]);
    // At least as many of each as before: the same routes, preflights and permissions, and the transcription's.
    for (const type of renamedTypes)
      expect(Object.values(resources).filter((r) => r.Type === type).length).toBeGreaterThanOrEqual(
        Object.values(before).filter((t) => t === type).length,
      );
  });
});

describe('upgrading a single stack, first deploy (context detachRoutesKeepingDeployment)', () => {
  const kept = Object.entries(SINGLE_STACK.resources).find(([, type]) => type === 'AWS::ApiGateway::Deployment')![0];
  let stack: VoiceOrgStack;
  let root: Json;

  beforeAll(() => {
    stack = build({ detachRoutesKeepingDeployment: kept });
    root = Template.fromStack(stack).toJSON();
  });

  it('builds no route stack and keeps every function of the single stack in the root stack, with its logical id', () => {
    expect(stack.routeStacks).toEqual([]);
    expect(resourcesOfType(root, 'AWS::CloudFormation::Stack')).toEqual([]);
    expect(
      functionIdsOf(root)
        .filter((id) => !isAddedSince(id))
        .sort(),
    ).toEqual(
      Object.values(SINGLE_STACK.functions)
        .map((f) => f.logicalId)
        .sort(),
    );
  });

  it('keeps the deployed Deployment (same logical id and properties), so the stage keeps serving its snapshot', () => {
    expect(deploymentIdOf(root)).toBe(kept);
    const [, stage] = resourcesOfType(root, 'AWS::ApiGateway::Stage')[0];
    expect(stage.Properties.DeploymentId).toEqual({ Ref: kept });
    expect(root.Resources[kept].Properties).toEqual({ Description: 'Voice Org API', RestApiId: { Ref: 'ApiF70053CD' } });
  });

  it("removes the route areas' methods and path resources: /health and the shared paths stay, with their logical ids", () => {
    const before: Record<string, string> = SINGLE_STACK.resources;
    const methods = resourcesOfType(root, 'AWS::ApiGateway::Method').map(([id]) => id);
    const paths = resourcesOfType(root, 'AWS::ApiGateway::Resource').map(([id]) => id);
    expect(methods.map((id) => root.Resources[id].Properties.HttpMethod).sort()).toEqual(['GET', 'OPTIONS']);
    expect(paths).toHaveLength(6);
    for (const id of [...methods, ...paths]) expect(before[id]).toBeDefined();
  });

  it('keeps every other resource of the single stack as it is named, and adds only invoke permissions', () => {
    const before: Record<string, string> = SINGLE_STACK.resources;
    const gone = Object.keys(before).filter((id) => !(id in root.Resources));
    const added = Object.keys(root.Resources).filter((id) => !(id in before) && !isAddedSince(id) && !isGroupAlarm(id));
    expect([...new Set(gone.map((id) => before[id]))].sort()).toEqual([
      'AWS::ApiGateway::Method',
      'AWS::ApiGateway::Resource',
      'AWS::Lambda::Permission',
    ]);
    expect([...new Set(added.map((id) => root.Resources[id].Type))]).toEqual(['AWS::Lambda::Permission']);
  });

  it("lets the kept snapshot invoke every route area's function: one permission each, for the stage, any method and path", () => {
    const stageId = resourcesOfType(root, 'AWS::ApiGateway::Stage')[0][0];
    const areaFunctions = listRouteAreas()
      .filter((a) => !a.inRoot)
      .flatMap((a) =>
        a.functions.flatMap((f) =>
          f.handler in SINGLE_STACK.functions ? [SINGLE_STACK.functions[f.handler as keyof typeof SINGLE_STACK.functions].logicalId] : [],
        ),
      );
    const permissions = resourcesOfType(root, 'AWS::Lambda::Permission').map(([, p]) => p.Properties);
    for (const fn of areaFunctions) {
      const granted = permissions.filter((p) => p.FunctionName?.['Fn::GetAtt']?.[0] === fn && p.Principal === 'apigateway.amazonaws.com');
      expect({ fn, granted: granted.length }).toEqual({ fn, granted: 1 });
      expect(JSON.stringify(granted[0].SourceArn)).toContain(`{"Ref":"ApiF70053CD"},"/",{"Ref":"${stageId}"},"/*/*"`);
    }
  });

  it('then, deployed normally, creates the route stacks and a new Deployment; every function keeps its logical id in its stack', () => {
    const { root: next, nested } = templatesOf(build());
    expect(deploymentIdOf(next)).not.toBe(kept);
    const functionIds = [next, ...nested.map((n) => n.template)].flatMap(functionIdsOf).filter((id) => !isAddedSince(id));
    expect(functionIds.sort()).toEqual(
      Object.values(SINGLE_STACK.functions)
        .map((f) => f.logicalId)
        .sort(),
    );
  });

  it('takes the deployed Deployment from the context, refusing what is not a Deployment logical id', () => {
    const propsOf = (value: string) => stackPropsFromContext(new App({ context: { detachRoutesKeepingDeployment: value } }).node).props;
    expect(propsOf(kept).detachRoutesKeepingDeployment).toBe(kept);
    expect(() => propsOf('ApiF70053CD')).toThrow(/detachRoutesKeepingDeployment must be the logical id/);
  });
});
