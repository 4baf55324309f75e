import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { areaOfName } from '../deployed-names';
import type { FunctionDefinition } from '../function-list';

/**
 * What every alarm of the stack reads (observability.ts): the thresholds, the period, and the
 * groups of functions one metric math alarm can cover (CloudWatch lets an alarm read at most 10 metrics).
 */

/** The thresholds an operator may set by context (alarmLatencyP99Ms, alarm5xxRatePercent). */
export interface AlarmThresholds {
  /** p99 latency in milliseconds above which the API's alarm and each route group's alarm fire. */
  latencyP99Ms: number;
  /** Share of the API's requests answered 5xx, in percent, above which the 5xx alarm fires. */
  serverErrorRatePercent: number;
}

export const ALARM_DEFAULTS: AlarmThresholds = { latencyP99Ms: 3_000, serverErrorRatePercent: 5 };

/** The fixed rules of the alarms: what they read and for how long. */
export const ALARM_RULES = {
  /** Every alarm reads 5-minute periods. */
  periodMinutes: 5,
  /** The 5xx rate counts only periods with at least this many requests: one failure in three requests is not an outage. */
  minimumRequestsForRate: 10,
  /** Gateway 429s (stage or account throttling) in a period that count as throttling. */
  throttledRequests: 10,
  /** CloudWatch's limit: one metric math alarm reads at most 10 metrics. */
  metricsPerAlarm: 10,
} as const;

export const ALARM_PERIOD = Duration.minutes(ALARM_RULES.periodMinutes);

/** A group of functions read by one alarm and one graph: whole areas (functions/<area>/…), at most 10 functions. */
export interface FunctionGroup {
  name: string;
  /** Each function by its deployed name (users/list-users), the label of its series. */
  functions: { handler: string; name: string; fn: lambda.IFunction }[];
}

/**
 * The functions in manifest order, grouped by area (functions/<area>/…; the authorizer and
 * health are areas of their own): whole areas packed together up to 10 functions, an area
 * with more split in parts.
 */
export function groupFunctions(
  definitions: readonly FunctionDefinition[],
  functionFor: (handler: string) => lambda.IFunction,
): FunctionGroup[] {
  const byArea = new Map<string, FunctionDefinition[]>();
  for (const definition of definitions) {
    const area = areaOfName(definition.name);
    byArea.set(area, [...(byArea.get(area) ?? []), definition]);
  }
  const groups: { areas: string[]; definitions: FunctionDefinition[] }[] = [];
  for (const [area, inArea] of byArea) {
    for (let start = 0; start < inArea.length; start += ALARM_RULES.metricsPerAlarm) {
      const part = inArea.slice(start, start + ALARM_RULES.metricsPerAlarm);
      const label = inArea.length > ALARM_RULES.metricsPerAlarm ? `${area} ${start / ALARM_RULES.metricsPerAlarm + 1}` : area;
      const last = groups.at(-1);
      if (last && last.definitions.length + part.length <= ALARM_RULES.metricsPerAlarm) {
        last.areas.push(label);
        last.definitions.push(...part);
      } else {
        groups.push({ areas: [label], definitions: [...part] });
      }
    }
  }
  return groups.map(({ areas, definitions: grouped }) => ({
    name: areas.join(', '),
    functions: grouped.map(({ handler, name }) => ({ handler, name, fn: functionFor(handler) })),
  }));
}

/** One series out of a group's metrics (at most 10): the worst or the total at each period, a function without data counting as 0. */
export function worstOf(metrics: cloudwatch.IMetric[], how: 'MAX' | 'SUM', label: string): cloudwatch.MathExpression {
  if (metrics.length > ALARM_RULES.metricsPerAlarm)
    throw new Error(`An alarm reads at most ${ALARM_RULES.metricsPerAlarm} metrics, not ${metrics.length}`);
  const ids = metrics.map((_, index) => `m${index}`);
  return new cloudwatch.MathExpression({
    expression: `${how}([${ids.map((id) => `FILL(${id}, 0)`).join(', ')}])`,
    usingMetrics: Object.fromEntries(ids.map((id, index) => [id, metrics[index]])),
    period: ALARM_PERIOD,
    label,
  });
}
