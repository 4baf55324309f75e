import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { flushMetrics } from './metrics';
import { tracer } from './tracer';

/**
 * The middlewares every function runs outermost, in this order: the handler's X-Ray
 * subsegment (cold start and service annotations; never the response as metadata: responses
 * carry key secrets and profiles), then the publication of the business metrics it counted.
 */
export function instrumentation(): MiddlewareObj[] {
  return [captureLambdaHandler(tracer, { captureResponse: false }), flushMetrics()];
}

/** A Lambda handler as the runtime calls it; the local runtime and tests may leave the context out. */
export type LambdaHandler<Event, Result> = (event: Event, context?: Context) => Promise<Result>;

/** A handler that is not an HTTP route (the authorizer, the event handlers), wrapped in {@link instrumentation}. */
export function instrumented<Event, Result>(handle: (event: Event) => Promise<Result>): LambdaHandler<Event, Result> {
  const wrapped = middy<Event, Result, Error, Context>().use(instrumentation()).handler(handle);
  // Without a context middy uses an empty object (its own default): nothing here reads one outside Lambda, where the tracer is off.
  return (event, context) => wrapped(event, context ?? ({} as Context));
}
