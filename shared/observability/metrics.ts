import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import { config } from '../config';
import { logger } from './logger';
import { METRICS_NAMESPACE, SERVICE_NAME, type CountMetric } from './metric-names';

/**
 * A Powertools Metrics instance for the service: the namespace, `service` and, when known,
 * `stage` as dimensions. Its warnings (an invalid dimension…) go to the structured logger.
 * It writes EMF lines to stdout, unless POWERTOOLS_METRICS_DISABLED is true, or POWERTOOLS_DEV
 * is set without it (as `npm start` does): Powertools reads both when the instance is created.
 */
export function createMetrics(stage: string | undefined): Metrics {
  return new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME, defaultDimensions: stage ? { stage } : undefined, logger });
}

let functionMetrics: Metrics | undefined;

/** The function's instance: created on the first count (the config is parsed by then), kept for the process. */
function metrics(): Metrics {
  functionMetrics ??= createMetrics(config().stage);
  return functionMetrics;
}

/** Counts a business metric in this invocation; {@link flushMetrics} publishes it when the invocation ends. */
export const countMetric: CountMetric = (metric, count = 1) => {
  metrics().addMetric(metric, MetricUnit.Count, count);
};

/**
 * Publishes what this invocation counted, as one EMF line, and only then: Powertools' own
 * `logMetrics` middleware publishes on every invocation and warns ("No application metrics to
 * publish") on each one that counted nothing, which is most requests.
 */
export function publishMetrics(instance: Metrics | undefined = functionMetrics): void {
  if (instance?.hasStoredMetrics()) instance.publishStoredMetrics();
}

/** Middy middleware: publishes the invocation's metrics after the handler, whether it answered or threw. */
export function flushMetrics(): MiddlewareObj {
  const flush = () => publishMetrics();
  return { after: flush, onError: flush };
}
