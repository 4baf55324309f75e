import { Duration, type Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  BUSINESS_METRICS,
  METRICS_NAMESPACE,
  SERVICE_NAME,
  THROTTLED_REQUESTS_METRIC,
  type BusinessMetric,
} from '../../shared/observability/metric-names';
import { listFunctions, type FunctionDefinition } from '../function-list';
import { ALARM_DEFAULTS, ALARM_PERIOD, ALARM_RULES, groupFunctions, worstOf, type AlarmThresholds } from './alarm-rules';
import type { AlarmNotifications } from './alarm-topic';
import type { DeadLetterQueue } from './events';

/**
 * The stack's dashboard and alarms (docs/observability.md): the API's 5xx rate, its p99
 * latency and each route's, throttling (Lambda's and the gateway's 429s), the event
 * pipeline's dead-letter queues (their alarms are built with the pipeline, infra/constructs/events.ts)
 * and the business counts. Every alarm notifies one SNS topic (alarm-topic.ts).
 *
 * A CloudFormation stack holds at most 500 resources, and this one is close: per-route alarms
 * are therefore metric math alarms over a group of routes (CloudWatch lets one alarm read at
 * most 10 metrics), named after the areas they cover. They cost the same as one alarm per
 * route: CloudWatch bills an alarm per metric it reads.
 */

export interface MonitoringProps {
  stage: string;
  api: apigateway.RestApi;
  /** The function of a handler module of the manifest. */
  functionFor: (handlerModule: string) => lambda.IFunction;
  /** The functions the stack builds: every function of the manifest unless told (the first deploy of the upgrade builds fewer). */
  functions?: readonly FunctionDefinition[];
  deadLetterQueues: readonly DeadLetterQueue[];
  notifications: AlarmNotifications;
  thresholds?: Partial<AlarmThresholds>;
}

/** One alarm of the stack, with what an operator needs to find it in docs/observability.md. */
export interface StackAlarm {
  alarm: cloudwatch.Alarm;
  /** The functions it reads (route groups and throttles), by handler module. */
  handlers?: string[];
}

export interface Monitoring {
  dashboard: cloudwatch.Dashboard;
  alarms: StackAlarm[];
}

/**
 * The dashboard (named voice-org-api-<stage>) and the alarms of the API and its functions, all
 * notifying the alarm topic. The dead-letter queues' alarms are the pipeline's; the dashboard
 * shows their depth and state.
 */
export function addMonitoring(stack: Stack, props: MonitoringProps): Monitoring {
  const thresholds: AlarmThresholds = { ...ALARM_DEFAULTS, ...props.thresholds };
  const prefix = `voice-org-api-${props.stage}`;
  const stage = props.api.deploymentStage;
  const alarms: StackAlarm[] = [];
  const alarm = (id: string, name: string, options: Omit<cloudwatch.AlarmProps, 'alarmName'>, handlers?: string[]): cloudwatch.Alarm => {
    const created = new cloudwatch.Alarm(stack, id, {
      alarmName: `${prefix}-${name}`,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...options,
    });
    created.addAlarmAction(props.notifications.action);
    alarms.push({ alarm: created, handlers });
    return created;
  };

  // The API as its clients see it: requests, server errors, latency (authorizer and integration included), throttling.
  const requests = stage.metricCount({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM, label: 'requests' });
  const serverErrors = stage.metricServerError({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM, label: '5xx' });
  const clientErrors = stage.metricClientError({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM, label: '4xx' });
  const serverErrorRate = new cloudwatch.MathExpression({
    expression: `IF(requests >= ${ALARM_RULES.minimumRequestsForRate}, 100 * FILL(errors, 0) / requests, 0)`,
    usingMetrics: { requests, errors: serverErrors },
    period: ALARM_PERIOD,
    label: '5xx rate (%)',
  });
  // Alarms read these two without a label (a labelled metric becomes a metric math alarm); the graphs label them.
  const latencyP99 = stage.metricLatency({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.p(99) });
  const throttledRequests = new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: THROTTLED_REQUESTS_METRIC,
    dimensionsMap: { stage: props.stage },
    period: ALARM_PERIOD,
    statistic: cloudwatch.Stats.SUM,
  });

  alarm('Api5xxRateAlarm', 'api-5xx-rate', {
    alarmDescription: `Voice Org API: more than ${thresholds.serverErrorRatePercent}% of the API's requests answered 5xx (in 2 of 3 five-minute periods with at least ${ALARM_RULES.minimumRequestsForRate} requests). See docs/observability.md, "Api5xxRate".`,
    metric: serverErrorRate,
    threshold: thresholds.serverErrorRatePercent,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
  alarm('ApiLatencyP99Alarm', 'api-latency-p99', {
    alarmDescription: `Voice Org API: the API's p99 latency was above ${thresholds.latencyP99Ms} ms for 15 minutes. See docs/observability.md, "ApiLatencyP99".`,
    metric: latencyP99,
    threshold: thresholds.latencyP99Ms,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
  });
  alarm('RateLimiterUnavailableAlarm', 'rate-limiter-unavailable', {
    alarmDescription:
      'Voice Org API: requests went through uncounted because the rate limit counters could not be reached (the limiter fails open), in 2 of 3 five-minute periods. See docs/observability.md, "RateLimiterUnavailable".',
    metric: new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: 'RateLimiterUnavailable' satisfies BusinessMetric,
      dimensionsMap: { service: SERVICE_NAME, stage: props.stage },
      period: ALARM_PERIOD,
      statistic: cloudwatch.Stats.SUM,
    }),
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
  alarm('ApiThrottledAlarm', 'api-throttled', {
    alarmDescription: `Voice Org API: API Gateway refused ${ALARM_RULES.throttledRequests} or more requests with 429 in 2 of 3 five-minute periods (the stage's throttling limits, or the account's). See docs/observability.md, "ApiThrottled".`,
    metric: throttledRequests,
    threshold: ALARM_RULES.throttledRequests,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });

  // Each route's p99: its function's Duration (one function per route; a public alias shares it), the authorizer's too.
  const definitions = props.functions ?? listFunctions();
  const synchronous = groupFunctions(
    definitions.filter((f) => f.kind === 'authorizer' || f.kind === 'http'),
    props.functionFor,
  );
  const latencyGraphs = synchronous.map((group, index) => {
    const durations = group.functions.map(({ name, fn }) =>
      fn.metricDuration({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.p(99), label: name }),
    );
    alarm(
      `RouteLatencyP99Alarm${index + 1}`,
      `route-latency-p99-${index + 1}`,
      {
        alarmDescription: `Voice Org API: a route's p99 duration (${group.name}) was above ${thresholds.latencyP99Ms} ms for 15 minutes. The dashboard's "Route p99" graphs name it. See docs/observability.md, "RouteLatencyP99".`,
        metric: worstOf(durations, 'MAX', `worst route p99 (${group.name})`),
        threshold: thresholds.latencyP99Ms,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
      },
      group.functions.map((f) => f.handler),
    );
    return new cloudwatch.GraphWidget({
      title: `Route p99 duration (ms): ${group.name}`,
      left: durations,
      width: 8,
      height: 6,
      leftAnnotations: [{ value: thresholds.latencyP99Ms, label: 'alarm' }],
    });
  });

  // Throttled invocations of every function: the account's concurrency is shared with whatever else runs there.
  const everyFunction = groupFunctions(definitions, props.functionFor);
  const throttleGraphs = everyFunction.map((group, index) => {
    const throttles = group.functions.map(({ name, fn }) =>
      fn.metricThrottles({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM, label: name }),
    );
    alarm(
      `LambdaThrottlesAlarm${index + 1}`,
      `lambda-throttles-${index + 1}`,
      {
        alarmDescription: `Voice Org API: Lambda throttled invocations of ${group.name} in 2 of 3 five-minute periods. See docs/observability.md, "LambdaThrottles".`,
        metric: worstOf(throttles, 'SUM', `throttles (${group.name})`),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      },
      group.functions.map((f) => f.handler),
    );
    return new cloudwatch.GraphWidget({
      title: `Throttles and errors: ${group.name}`,
      left: throttles,
      right: group.functions.map(({ name, fn }) =>
        fn.metricErrors({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM, label: `${name} errors` }),
      ),
      width: 8,
      height: 6,
    });
  });

  const business = (Object.keys(BUSINESS_METRICS) as BusinessMetric[]).map(
    (metricName) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE_NAME, stage: props.stage },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.hours(1),
        label: metricName,
      }),
  );

  const dashboard = new cloudwatch.Dashboard(stack, 'Dashboard', { dashboardName: prefix, defaultInterval: Duration.days(1) });
  dashboard.addWidgets(
    new cloudwatch.TextWidget({
      markdown: [
        `# Voice Org API, stage ${props.stage}`,
        "Alarms, then the API as clients see it, the business counts, each route's p99 duration, throttles and errors per function, and the event pipeline's dead-letter queues.",
        'Traces: X-Ray trace map (service `voice-org-api`), search `annotation.correlation_id = "<id>"`. Logs: Logs Insights on the functions\' log groups, `filter correlation_id = "<id>"`. What to do when an alarm fires: docs/observability.md.',
      ].join('\n\n'),
      width: 24,
      height: 3,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.AlarmStatusWidget({
      title: 'Alarms',
      alarms: [...alarms.map((a) => a.alarm), ...props.deadLetterQueues.map((d) => d.alarm)],
      width: 24,
      height: 4,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({ title: 'Requests and errors', left: [requests, clientErrors, serverErrors], width: 6, height: 6 }),
    new cloudwatch.GraphWidget({
      title: '5xx rate (%)',
      left: [serverErrorRate],
      leftAnnotations: [{ value: thresholds.serverErrorRatePercent, label: 'alarm' }],
      width: 6,
      height: 6,
    }),
    new cloudwatch.GraphWidget({
      title: 'Latency (ms)',
      left: [
        stage.metricLatency({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.p(50), label: 'latency p50' }),
        latencyP99.with({ label: 'latency p99' }),
        stage.metricIntegrationLatency({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.p(99), label: 'integration p99' }),
      ],
      leftAnnotations: [{ value: thresholds.latencyP99Ms, label: 'alarm' }],
      width: 6,
      height: 6,
    }),
    new cloudwatch.GraphWidget({
      title: 'Throttled by API Gateway (429)',
      left: [throttledRequests.with({ label: '429 throttled' })],
      width: 6,
      height: 6,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.SingleValueWidget({
      title: 'Business counts (dashboard time range)',
      metrics: business,
      setPeriodToTimeRange: true,
      width: 24,
      height: 4,
    }),
    new cloudwatch.GraphWidget({ title: 'Business counts per hour', left: business, width: 24, height: 6 }),
  );
  dashboard.addWidgets(...latencyGraphs);
  dashboard.addWidgets(...throttleGraphs);
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: "Dead-letter queues: messages (the event pipeline's, alarm at 1)",
      left: props.deadLetterQueues.map((d) =>
        d.queue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: cloudwatch.Stats.MAXIMUM, label: d.id }),
      ),
      width: 24,
      height: 6,
    }),
  );
  return { dashboard, alarms };
}
