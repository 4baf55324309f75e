import type * as v from 'valibot';
import type { ErrorCode } from '../core/error-codes';
import type { SampleRequestOf } from './sample-request';

/**
 * What a route module says of its route besides the definition its function runs: its
 * documentation, examples and sample request. The OpenAPI generator (shared/openapi/document.ts),
 * the contract check of the integration tests and the sample events read them through the
 * manifest (shared/routes/manifest.ts). A route module gives them as a function the manifest
 * calls: esbuild drops an unused function whole, while it keeps an unused object whose examples
 * call a helper or spread a value (either might have side effects), so no bundle carries them.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 414 | 415 | 422 | 429 | 431 | 500 | 501;

/** Error codes by status: what a refusal with that status may say in its `error`. */
export type ErrorCodes = Partial<Record<ErrorStatus, readonly ErrorCode[]>>;

/**
 * One example of the request body and of every success response of an operation, for the
 * OpenAPI document: the demo organization of fixtures/demo.json as the API would show it
 * (shared/routes/demo-examples.ts). test/unit/openapi-content.test.ts validates each one
 * against its valibot schema and checks that none is missing.
 */
export interface RouteExamples {
  /** The JSON body of a request, for routes that take one. */
  request?: unknown;
  /** The body of each success status. */
  responses: Record<number, unknown>;
}

/** A route of the API reference (`reference: true`): no operation of the document, only a sample request. */
export interface ReferenceRouteDocs {
  sample: SampleRequestOf;
}

/** An operation of the API: what the OpenAPI document says of it, and its sample request. */
export interface OperationDocs extends ReferenceRouteDocs {
  /** What the operation does, in a sentence or two (the document adds who may call it). */
  description: string;
  /** Success statuses and their body schemas. */
  responses: Record<number, v.GenericSchema>;
  /**
   * The refusals of the route's own logic (its domain functions), by status, each code it
   * answers with. Those every route of its kind can answer (bad input, credential, access
   * policy, Idempotency-Key, API Gateway) are added by `refusalsOf` (shared/openapi/refusals.ts).
   */
  errors: ErrorCodes;
  examples: RouteExamples;
  /** Text media types the success response may have instead of JSON (Get transcript's `format`), each with an example. */
  textFormats?: readonly { mediaType: string; description: string; example: string }[];
}
