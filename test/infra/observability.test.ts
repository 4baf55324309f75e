import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { stackPropsFromContext } from '../../infra/context';
import { ALARM_DEFAULTS, ALARM_RULES } from '../../infra/constructs/alarm-rules';
import { BUSINESS_METRICS, METRICS_NAMESPACE, SERVICE_NAME, THROTTLED_REQUESTS_METRIC } from '../../shared/observability/metric-names';
import { EVENT_CONSUMERS } from '../../shared/events/event-functions';
import { listFunctions } from '../../infra/function-list';
import { VoiceOrgStack, type VoiceOrgStackProps } from '../../infra/stack';
import { functionLogicalId, functionStatements, onlyLogicalId, synth, templatesOf, type Json } from './template';

/** The root stack's own template (the route stacks are templates of their own, each under the same limit). */
function rootTemplate(props: Partial<VoiceOrgStackProps> = {}): Json {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return templatesOf(new VoiceOrgStack(app, 'CountStack', { stage: 'test', ...props })).root;
}

/**
 * Production observability of VoiceOrgStack (infra/constructs/observability.ts, docs/observability.md):
 * X-Ray active tracing on every function and the API stage; one alarm topic every alarm
 * notifies, with an email subscriber only when one is configured; the alarms on the API's 5xx
 * rate, p99 latency and 429s, on every route's p99 and every function's throttles, and on every
 * dead-letter queue; the dashboard that shows them and the business metrics.
 */

const EMAIL = 'oncall@acme.example';
const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:ops-alarms';

/**
 * A dashboard body as CloudWatch will read it: CloudFormation's Fn::Join of text and references,
 * each reference written as its logical id (so a widget's function can be checked against the template).
 */
function dashboardBody(template: Template): Json {
  const dashboard = template.toJSON().Resources[onlyLogicalId(template, 'AWS::CloudWatch::Dashboard')];
  const parts: Json[] = dashboard.Properties.DashboardBody['Fn::Join'][1];
  const text = parts
    .map((part) => (typeof part === 'string' ? part : (part.Ref ?? part['Fn::GetAtt']?.join('.') ?? JSON.stringify(part))))
    .join('');
  return { name: dashboard.Properties.DashboardName, body: JSON.parse(text) };
}

describe('observability of VoiceOrgStack (defaults)', () => {
  let template: Template;
  let resources: Record<string, Json>;
  let topicId: string;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const alarmNamed = (name: string) => {
    const found = ofType('AWS::CloudWatch::Alarm').filter(([, alarm]) => alarm.Properties.AlarmName === `voice-org-api-test-${name}`);
    expect(found).toHaveLength(1);
    return found[0][1].Properties;
  };
  /** The function logical ids an alarm's metrics read (Lambda metrics by FunctionName). */
  const functionsRead = (alarm: Json, metricName: string) =>
    (alarm.Metrics ?? [])
      .filter((m: Json) => m.MetricStat?.Metric.Namespace === 'AWS/Lambda' && m.MetricStat.Metric.MetricName === metricName)
      .map((m: Json) => m.MetricStat.Metric.Dimensions.find((d: Json) => d.Name === 'FunctionName').Value.Ref);

  beforeAll(() => {
    template = synth();
    resources = template.toJSON().Resources;
    topicId = onlyLogicalId(template, 'AWS::SNS::Topic');
  });

  describe('X-Ray', () => {
    it('traces every function actively, and lets each role send segments (the only grant on *)', () => {
      for (const { handler } of listFunctions()) {
        const id = functionLogicalId(template, handler);
        expect({ handler, tracing: resources[id].Properties.TracingConfig }).toEqual({ handler, tracing: { Mode: 'Active' } });
        const onAnything = functionStatements(template, id).filter((statement: Json) => statement.Resource === '*');
        const actions = onAnything.flatMap((statement: Json) => [statement.Action].flat());
        expect({ handler, actions: actions.filter((a: string) => a.startsWith('xray:')).sort() }).toEqual({
          handler,
          actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
        });
      }
    });

    it('traces the API stage', () => {
      const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0].Properties;
      expect(stage.TracingEnabled).toBe(true);
    });

    it('has every function send its invocation subsegment (TRACING=lambda), with no layer and no exec wrapper', () => {
      for (const { handler } of listFunctions()) {
        const { Environment, Layers } = resources[functionLogicalId(template, handler)].Properties;
        expect({
          handler,
          tracing: Environment.Variables.TRACING,
          wrapper: Environment.Variables.AWS_LAMBDA_EXEC_WRAPPER,
          layers: Layers,
        }).toEqual({ handler, tracing: 'lambda', wrapper: undefined, layers: undefined });
      }
    });

    it('gives every function its stage, the dimension of its business metrics', () => {
      for (const { handler } of listFunctions()) {
        expect({ handler, stage: resources[functionLogicalId(template, handler)].Properties.Environment.Variables.STAGE }).toEqual({
          handler,
          stage: 'test',
        });
      }
    });
  });

  describe('alarm topic', () => {
    it('is created, refuses requests without TLS and lets only CloudWatch alarms of this account publish', () => {
      const [, policy] = ofType('AWS::SNS::TopicPolicy').find(([, p]) => p.Properties.Topics.some((t: Json) => t.Ref === topicId))!;
      const statements: Json[] = policy.Properties.PolicyDocument.Statement;
      expect(statements.find((s) => s.Effect === 'Deny')).toMatchObject({ Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
      expect(statements.find((s) => s.Sid === 'CloudWatchAlarmsPublish')).toMatchObject({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': expect.anything() } },
      });
      expect(template.toJSON().Outputs.AlarmTopicArn).toEqual({ Value: { Ref: topicId } });
    });

    it('has no subscriber without alarmEmail', () => {
      template.resourceCountIs('AWS::SNS::Subscription', 0);
    });

    it('is notified by every alarm of the stack', () => {
      const alarms = ofType('AWS::CloudWatch::Alarm');
      expect(alarms.length).toBeGreaterThan(10);
      for (const [id, alarm] of alarms) expect({ id, actions: alarm.Properties.AlarmActions }).toEqual({ id, actions: [{ Ref: topicId }] });
    });
  });

  describe('alarms', () => {
    it('api-5xx-rate: the share of 5xx answers on the stage, above 5%, in periods of at least 10 requests', () => {
      const alarm = alarmNamed('api-5xx-rate');
      expect(alarm).toMatchObject({
        Threshold: ALARM_DEFAULTS.serverErrorRatePercent,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        TreatMissingData: 'notBreaching',
      });
      const byId = Object.fromEntries(alarm.Metrics.map((m: Json) => [m.Id, m]));
      expect(alarm.Metrics.find((m: Json) => m.ReturnData !== false).Expression).toBe(
        'IF(requests >= 10, 100 * FILL(errors, 0) / requests, 0)',
      );
      for (const [id, metricName] of [
        ['requests', 'Count'],
        ['errors', '5XXError'],
      ]) {
        expect(byId[id].MetricStat).toMatchObject({
          Metric: { Namespace: 'AWS/ApiGateway', MetricName: metricName },
          Period: 300,
          Stat: 'Sum',
        });
        expect(byId[id].MetricStat.Metric.Dimensions.map((d: Json) => d.Name).sort()).toEqual(['ApiName', 'Stage']);
      }
      expect(ALARM_DEFAULTS.serverErrorRatePercent).toBe(5);
    });

    it("api-latency-p99: the stage's p99 latency above 3 s for 15 minutes", () => {
      expect(alarmNamed('api-latency-p99')).toMatchObject({
        Namespace: 'AWS/ApiGateway',
        MetricName: 'Latency',
        ExtendedStatistic: 'p99',
        Period: 300,
        Threshold: 3000,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 3,
      });
    });

    it("api-throttled: API Gateway's own 429s (error type THROTTLED, not a handler's RATE_LIMITED), counted from the access log per stage", () => {
      expect(alarmNamed('api-throttled')).toMatchObject({
        Namespace: METRICS_NAMESPACE,
        MetricName: THROTTLED_REQUESTS_METRIC,
        Dimensions: [{ Name: 'stage', Value: 'test' }],
        Statistic: 'Sum',
        Threshold: ALARM_RULES.throttledRequests,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0].Properties;
      const accessLogsId = stage.AccessLogSetting.DestinationArn['Fn::GetAtt'][0];
      const [, filter] = ofType('AWS::Logs::MetricFilter').find(([, f]) => f.Properties.LogGroupName.Ref === accessLogsId)!;
      expect(filter.Properties).toMatchObject({
        FilterPattern: '{ $.errorType = "THROTTLED" }',
        MetricTransformations: [
          {
            MetricNamespace: METRICS_NAMESPACE,
            MetricName: THROTTLED_REQUESTS_METRIC,
            MetricValue: '1',
            Dimensions: [{ Key: 'stage', Value: '$.stage' }],
          },
        ],
      });
      expect(JSON.parse(stage.AccessLogSetting.Format)).toMatchObject({
        stage: '$context.stage',
        errorType: '$context.error.responseType',
      });
    });

    it('rate-limiter-unavailable: any request the limiter let through uncounted, in 2 of 3 periods', () => {
      expect(alarmNamed('rate-limiter-unavailable')).toMatchObject({
        Namespace: METRICS_NAMESPACE,
        MetricName: 'RateLimiterUnavailable',
        Dimensions: [
          { Name: 'service', Value: SERVICE_NAME },
          { Name: 'stage', Value: 'test' },
        ],
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
      });
    });

    it("route-latency-p99-N: every route's function and the authorizer, each in one alarm on the worst p99 of at most 10", () => {
      const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) =>
        a.Properties.AlarmName?.startsWith('voice-org-api-test-route-latency-p99-'),
      );
      const read = alarms.flatMap(([, alarm]) => {
        const props = alarm.Properties;
        expect(props).toMatchObject({
          Threshold: ALARM_DEFAULTS.latencyP99Ms,
          ComparisonOperator: 'GreaterThanThreshold',
          EvaluationPeriods: 3,
        });
        const ids = functionsRead(props, 'Duration');
        expect(ids.length).toBeLessThanOrEqual(10);
        expect(props.Metrics.filter((m: Json) => m.MetricStat).every((m: Json) => m.MetricStat.Stat === 'p99')).toBe(true);
        expect(props.Metrics.find((m: Json) => m.Expression).Expression).toBe(
          `MAX([${ids.map((_: string, i: number) => `FILL(m${i}, 0)`).join(', ')}])`,
        );
        return ids;
      });
      const synchronous = listFunctions().filter((f) => f.kind === 'authorizer' || f.kind === 'http');
      expect(read.sort()).toEqual(synchronous.map((f) => functionLogicalId(template, f.handler)).sort());
    });

    it('lambda-throttles-N: every function, each in one alarm on the throttles of at most 10', () => {
      const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) =>
        a.Properties.AlarmName?.startsWith('voice-org-api-test-lambda-throttles-'),
      );
      const read = alarms.flatMap(([, alarm]) => {
        expect(alarm.Properties).toMatchObject({
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          EvaluationPeriods: 3,
          DatapointsToAlarm: 2,
        });
        const ids = functionsRead(alarm.Properties, 'Throttles');
        expect(ids.length).toBeLessThanOrEqual(10);
        expect(alarm.Properties.Metrics.find((m: Json) => m.Expression).Expression).toMatch(/^SUM\(\[FILL\(m0, 0\)/);
        return ids;
      });
      expect(read.sort()).toEqual(
        listFunctions()
          .map((f) => functionLogicalId(template, f.handler))
          .sort(),
      );
    });

    it('alarms on every dead-letter queue (and the processor failure queue) at its first message', () => {
      const deadLetterQueues = new Set(
        ofType('AWS::SQS::Queue').flatMap(([, q]) =>
          q.Properties.RedrivePolicy ? [q.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]] : [],
        ),
      );
      const failures = ofType('AWS::Lambda::EventSourceMapping').flatMap(([, m]) =>
        m.Properties.DestinationConfig ? [m.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0]] : [],
      );
      const expected = [...deadLetterQueues, ...failures].sort();
      expect(expected).toHaveLength(Object.keys(EVENT_CONSUMERS).length + 1);
      const alarmed = ofType('AWS::CloudWatch::Alarm')
        .filter(([, a]) => a.Properties.Namespace === 'AWS/SQS')
        .map(([, a]) => {
          expect(a.Properties).toMatchObject({
            MetricName: 'ApproximateNumberOfMessagesVisible',
            Statistic: 'Maximum',
            Threshold: 1,
            ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          });
          return a.Properties.Dimensions[0].Value['Fn::GetAtt'][0];
        });
      expect(alarmed.sort()).toEqual(expected);
    });
  });

  describe('dashboard', () => {
    let dashboard: { name: string; body: { widgets: Json[] } };
    const titled = (title: string) => dashboard.body.widgets.filter((w) => w.properties.title?.startsWith(title));
    const metricsOf = (widget: Json): Json[][] => widget.properties.metrics ?? [];

    beforeAll(() => {
      dashboard = dashboardBody(template);
    });

    it('is named after the stage and its name is an output', () => {
      expect(dashboard.name).toBe('voice-org-api-test');
      expect(template.toJSON().Outputs.DashboardName).toEqual({ Value: { Ref: onlyLogicalId(template, 'AWS::CloudWatch::Dashboard') } });
    });

    it('shows the state of every alarm', () => {
      const [status] = titled('Alarms');
      const alarmArns = ofType('AWS::CloudWatch::Alarm').map(([id]) => `${id}.Arn`);
      expect([...status.properties.alarms].sort()).toEqual(alarmArns.sort());
    });

    it('graphs the API: requests and errors, 5xx rate, latency, 429s', () => {
      const flat = (title: string) => JSON.stringify(titled(title).map(metricsOf));
      expect(flat('Requests and errors')).toEqual(expect.stringContaining('"AWS/ApiGateway","Count"'));
      expect(flat('Requests and errors')).toEqual(expect.stringContaining('"5XXError"'));
      expect(flat('5xx rate')).toContain('IF(requests >= 10');
      expect(flat('Latency')).toContain('"Latency"');
      expect(flat('Throttled by API Gateway')).toContain(`"${METRICS_NAMESPACE}","${THROTTLED_REQUESTS_METRIC}","stage","test"`);
    });

    it('shows every business metric, with its service and stage dimensions', () => {
      for (const title of ['Business counts (dashboard time range)', 'Business counts per hour']) {
        const [widget] = titled(title);
        expect(metricsOf(widget).map((m) => m.slice(0, 6))).toEqual(
          Object.keys(BUSINESS_METRICS).map((name) => [METRICS_NAMESPACE, name, 'service', SERVICE_NAME, 'stage', 'test']),
        );
      }
    });

    it("graphs every route's p99 duration, and every function's throttles and errors", () => {
      const functionsIn = (title: string) =>
        titled(title).flatMap((w) =>
          metricsOf(w)
            .filter((m) => m[0] === 'AWS/Lambda')
            .map((m) => m[3]),
        );
      const synchronous = listFunctions().filter((f) => f.kind === 'authorizer' || f.kind === 'http');
      expect(functionsIn('Route p99 duration').sort()).toEqual(synchronous.map((f) => functionLogicalId(template, f.handler)).sort());
      const all = listFunctions()
        .map((f) => functionLogicalId(template, f.handler))
        .sort();
      expect([...new Set(functionsIn('Throttles and errors'))].sort()).toEqual(all);
    });

    it('graphs the depth of every dead-letter queue', () => {
      const [widget] = titled('Dead-letter queues');
      const queues = metricsOf(widget).map((m) => m[3]);
      const alarmed = ofType('AWS::CloudWatch::Alarm')
        .filter(([, a]) => a.Properties.Namespace === 'AWS/SQS')
        .map(([, a]) => `${a.Properties.Dimensions[0].Value['Fn::GetAtt'][0]}.QueueName`);
      expect(queues.sort()).toEqual(alarmed.sort());
    });
  });

  it('keeps its root template well under the 500 resources a CloudFormation stack may hold (route stacks: test/infra/route-stacks.test.ts)', () => {
    const count = Object.keys(rootTemplate().Resources).length;
    console.log(`VoiceOrgStack (defaults): ${count} resources in the root template, ${Object.keys(resources).length} in all`);
    expect(count).toBeLessThanOrEqual(485);
  });
});

describe('observability of VoiceOrgStack (settings)', () => {
  it('subscribes alarmEmail to the topic the stack creates', () => {
    const template = synth({ alarmEmail: EMAIL });
    const topicId = onlyLogicalId(template, 'AWS::SNS::Topic');
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: EMAIL, TopicArn: { Ref: topicId } });
  });

  it('with alarmTopicArn, creates no topic: every alarm notifies that one, and alarmEmail subscribes to it', () => {
    const template = synth({ alarmTopicArn: TOPIC_ARN, alarmEmail: EMAIL });
    template.resourceCountIs('AWS::SNS::Topic', 0);
    for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm')))
      expect(alarm.Properties.AlarmActions).toEqual([TOPIC_ARN]);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: EMAIL, TopicArn: TOPIC_ARN });
    expect(template.toJSON().Outputs.AlarmTopicArn).toEqual({ Value: TOPIC_ARN });
  });

  it('uses the thresholds given instead of the defaults', () => {
    const template = synth({ alarmThresholds: { latencyP99Ms: 1500, serverErrorRatePercent: 1.5 } });
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const named = (prefix: string) => alarms.filter((a) => a.AlarmName?.startsWith(`voice-org-api-test-${prefix}`));
    expect(named('api-5xx-rate').map((a) => a.Threshold)).toEqual([1.5]);
    expect(named('api-latency-p99').map((a) => a.Threshold)).toEqual([1500]);
    expect(new Set(named('route-latency-p99-').map((a) => a.Threshold))).toEqual(new Set([1500]));
  });

  it('stays under 500 resources with every optional part on (mail, custom domain, password sign-in, alarm email)', () => {
    const template = rootTemplate({
      alarmEmail: EMAIL,
      mail: { identity: 'acme.example', fromAddress: 'no-reply@acme.example', appUrl: 'https://app.acme.example' },
      cognitoPasswordAuth: true,
      customDomain: {
        domainName: 'api.acme.example',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab',
        basePath: 'v1',
      },
    });
    const count = Object.keys(template.Resources).length;
    console.log(`VoiceOrgStack (every optional part): ${count} resources in the root template`);
    expect(count).toBeLessThan(500);
  });
});

describe('observability context keys', () => {
  const propsOf = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node).props;

  it('reads alarmEmail and the alarm thresholds', () => {
    expect(propsOf({ alarmEmail: EMAIL, alarmLatencyP99Ms: '1500', alarm5xxRatePercent: 2.5 })).toMatchObject({
      alarmEmail: EMAIL,
      alarmThresholds: { latencyP99Ms: 1500, serverErrorRatePercent: 2.5 },
    });
    expect(propsOf({ alarmLatencyP99Ms: 800 }).alarmThresholds).toEqual({ latencyP99Ms: 800, serverErrorRatePercent: undefined });
    expect(propsOf({})).toMatchObject({ alarmEmail: undefined, alarmThresholds: undefined });
  });

  it.each([
    [{ alarmEmail: 'oncall' }, /Context alarmEmail must be one email address/],
    [{ alarmEmail: 'a@acme.example,b@acme.example' }, /Context alarmEmail must be one email address/],
    [{ alarmLatencyP99Ms: '2.5s' }, /Context alarmLatencyP99Ms must be a whole number of milliseconds from 100 to 30000/],
    [{ alarmLatencyP99Ms: 50 }, /alarmLatencyP99Ms must be/],
    [{ alarm5xxRatePercent: 0 }, /Context alarm5xxRatePercent must be a percentage above 0 and at most 100/],
    [{ alarm5xxRatePercent: '150' }, /alarm5xxRatePercent must be/],
  ])('refuses %j', (context, message) => {
    expect(() => propsOf(context)).toThrow(message);
  });
});

describe('tracing modes other than the default (context tracing)', () => {
  const ADOT_LAYER = 'arn:aws:lambda:eu-west-1:901920570463:layer:aws-otel-nodejs-arm64-ver-1-30-2:1';
  const functionsOf = (template: Template) =>
    listFunctions().map(({ handler }) => ({ handler, ...template.toJSON().Resources[functionLogicalId(template, handler)].Properties }));

  it('opentelemetry: active tracing, the ADOT layer started by its exec wrapper on every function, and no subsegment of our own', () => {
    const template = synth({ tracing: { mode: 'opentelemetry', adotLayerArn: ADOT_LAYER } });
    for (const fn of functionsOf(template)) {
      expect({
        handler: fn.handler,
        tracing: fn.TracingConfig,
        layers: fn.Layers,
        wrapper: fn.Environment.Variables.AWS_LAMBDA_EXEC_WRAPPER,
        mode: fn.Environment.Variables.TRACING,
      }).toEqual({
        handler: fn.handler,
        tracing: { Mode: 'Active' },
        layers: [ADOT_LAYER],
        wrapper: '/opt/otel-handler',
        mode: 'opentelemetry',
      });
    }
    expect(Object.values(template.findResources('AWS::ApiGateway::Stage'))[0].Properties.TracingEnabled).toBe(true);
  });

  it('off: no tracing of the functions or the stage, and no X-Ray grant', () => {
    const template = synth({ tracing: { mode: 'off' } });
    for (const fn of functionsOf(template)) {
      expect({ handler: fn.handler, tracing: fn.TracingConfig, layers: fn.Layers, mode: fn.Environment.Variables.TRACING }).toEqual({
        handler: fn.handler,
        tracing: undefined,
        layers: undefined,
        mode: 'off',
      });
      const id = functionLogicalId(template, fn.handler);
      const actions = functionStatements(template, id).flatMap((statement: Json) => [statement.Action].flat());
      expect({ handler: fn.handler, xray: actions.filter((action: string) => action.startsWith('xray:')) }).toEqual({
        handler: fn.handler,
        xray: [],
      });
    }
    expect(Object.values(template.findResources('AWS::ApiGateway::Stage'))[0].Properties.TracingEnabled).toBe(false);
  });
});
