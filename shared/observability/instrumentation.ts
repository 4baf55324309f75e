import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { endInvocationTrace, startInvocationTrace, type TraceName } from './invocation-trace';
import { flushMetrics, publishMetrics } from './metrics';

/**
 * The invocation's X-Ray subsegment (shared/observability/invocation-trace.ts): opened first,
 * closed and sent last, so it spans the whole handler. It records the outcome (an HTTP status,
 * or that the handler threw), never the response: responses carry key secrets and profiles.
 * `name` is the route or consumer; left out, the function's own name (from the Lambda context).
 */
function traceInvocation(name: TraceName | undefined): MiddlewareObj<unknown, unknown, Error, Context> {
  return {
    before: ({ context }) => startInvocationTrace(name ?? { function: context?.functionName || 'handler' }),
    after: ({ response }) => endInvocationTrace({ status: statusOf(response) }),
    // An HTTP route's error was already answered (errorResponse's onError runs first): its status says what it was.
    onError: ({ response }) => endInvocationTrace(statusOf(response) === undefined ? { threw: true } : { status: statusOf(response) }),
  };
}

function statusOf(response: unknown): number | undefined {
  return (response as Partial<APIGatewayProxyResult> | null | undefined)?.statusCode;
}

/**
 * The middlewares every function runs outermost, in this order: the invocation's subsegment,
 * then the publication of the business metrics it counted.
 */
export function instrumentation(name?: TraceName): MiddlewareObj[] {
  return [traceInvocation(name) as MiddlewareObj, flushMetrics()];
}

/** A Lambda handler as the runtime calls it; the local runtime and tests may leave the context out. */
export type LambdaHandler<Event, Result> = (event: Event, context?: Context) => Promise<Result>;

/**
 * A handler that is not an HTTP route (the authorizer, the event handlers), wrapped as
 * {@link instrumentation} wraps a route, without middy (the authorizer's bundle does without it):
 * its subsegment around it, its metrics published after it, whether it answered or threw.
 * `name` names its subsegment (a consumer's name…), else the function's.
 */
export function instrumented<Event, Result>(handle: (event: Event) => Promise<Result>, name?: TraceName): LambdaHandler<Event, Result> {
  return async (event, context) => {
    startInvocationTrace(name ?? { function: context?.functionName || 'handler' });
    let result: Result;
    try {
      result = await handle(event);
    } catch (error) {
      publishMetrics();
      await endInvocationTrace({ threw: true });
      throw error;
    }
    publishMetrics();
    await endInvocationTrace({});
    return result;
  };
}
