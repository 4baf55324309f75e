import type { APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../../observability/logger';
import { ApiError, ValidationError } from '../../core/errors';
import type { HttpMiddleware } from '../http-context';
import { errorBody, json } from '../responses';

/**
 * The one mapping of failures to the error envelope: an ApiError gives its status, code and
 * message (and a 400's field details); anything else is 500 INTERNAL_ERROR with no internal
 * detail, and the error goes to the log only. Used last, so its onError runs first and the
 * other middlewares decorate the envelope (headers).
 */
export function errorResponse(): HttpMiddleware {
  return {
    onError: (request) => {
      request.response = envelopeOf(request.error);
    },
  };
}

function envelopeOf(error: unknown): APIGatewayProxyResult {
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) logger.error('request failed', { error });
    else logger.info('request refused', { status: error.statusCode, error_code: error.code });
    const details = error instanceof ValidationError ? error.details : undefined;
    const response = json(error.statusCode, errorBody(error.code, error.message, details));
    return { ...response, headers: { ...response.headers, ...error.headers } };
  }
  logger.error('unexpected failure', { error: error instanceof Error ? error : String(error) });
  return json(500, errorBody('INTERNAL_ERROR', 'An unexpected error occurred; it has been logged.'));
}
