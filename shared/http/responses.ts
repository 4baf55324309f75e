import type { APIGatewayProxyResult } from 'aws-lambda';
import type { FieldProblem } from '../core/errors';
import type { PagePagination } from '../core/page-pagination';

/** Any JSON response; the correlation middleware adds x-correlation-id. */
export function json(statusCode: number, body: unknown): APIGatewayProxyResult {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The spec's success envelope `{success: true, data, pagination?}`. */
export function envelope(data: unknown, pagination?: PagePagination, statusCode = 200): APIGatewayProxyResult {
  return json(statusCode, pagination ? { success: true, data, pagination } : { success: true, data });
}

/**
 * The spec's failure envelope, used by every route and by the gateway responses; a 400
 * adds `details`, one entry per offending field.
 */
export function errorBody(code: string, message: string, details?: readonly FieldProblem[]) {
  return { success: false, data: null, error: code, message, ...(details?.length ? { details } : {}) };
}

/** A file the API answers as itself (an exported transcript): its media type, and when it is to be saved, its Content-Disposition. */
export function transcriptFileResponse(file: { contentType: string; body: string; contentDisposition?: string }): APIGatewayProxyResult {
  return {
    statusCode: 200,
    headers: { 'content-type': file.contentType, ...(file.contentDisposition ? { 'content-disposition': file.contentDisposition } : {}) },
    body: file.body,
  };
}
