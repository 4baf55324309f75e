import * as v from 'valibot';
import { PROBLEM_KINDS } from '../core/errors';

/**
 * What every area's responses share: the error envelope, the success envelopes and page
 * pagination, and the helpers that describe a field for the OpenAPI document. Response
 * schemas are for the OpenAPI document and the contract check of the integration tests; each
 * area's are in shared/schemas/<area>-responses.ts (a module no handler imports, so no bundle
 * carries them), or beside the area's other schemas where the domain shapes its views by them
 * (api-keys, audit, webhooks).
 */
export const NullableString = v.nullable(v.string());

/** A schema with what it means, for the OpenAPI document. */
export const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));
export const TIMESTAMP = 'ISO 8601 UTC, with milliseconds.';
export const createdAt = (what: string) => described(v.string(), `When the ${what} was created (${TIMESTAMP})`);
export const updatedAt = (what: string) => described(v.string(), `When the ${what} last changed (${TIMESTAMP})`);

/** `{success: false, data: null, error: CODE, message}`: every refusal, gateway ones included. */
export const ErrorEnvelope = described(
  v.strictObject({
    success: described(v.literal(false), 'Always false on a refusal.'),
    data: described(v.null(), 'Always null on a refusal.'),
    error: described(
      v.string(),
      'The error code (UPPER_SNAKE_CASE), stable for programs to branch on: each operation lists the codes of each of its refusal statuses.',
    ),
    message: described(v.string(), 'What went wrong, in English, for people; its wording may change.'),
    /** 400s only: each offending field (query or path parameter, or body path such as sections[2].title) and what is wrong with it. */
    details: described(
      v.optional(
        v.array(
          v.strictObject({
            field: described(
              v.string(),
              'The query or path parameter, header, or body path (`sections[2].title`) at fault; empty for the body as a whole.',
            ),
            issue: described(v.picklist(PROBLEM_KINDS), 'The kind of problem, for programs.'),
            message: described(v.string(), 'The problem in words, such as `must be at most 200 characters`.'),
          }),
        ),
      ),
      'On a 400 only: one entry per offending field.',
    ),
  }),
  'A refused request: the same envelope on every refusal of the API and of API Gateway in front of it.',
);

/** `{success: true}`. */
export const SuccessOnly = v.strictObject({ success: described(v.literal(true), 'Always true: the operation was done.') });

export const PagePagination = v.strictObject({
  page: described(v.number(), 'This page, 1-based.'),
  limit: described(v.number(), 'The page size asked for (or its default).'),
  total: described(v.number(), 'Items across all pages.'),
  total_pages: described(v.number(), 'Pages of `limit` items; 0 when there is no item.'),
  has_more: described(v.boolean(), 'Whether a page follows this one.'),
});

export const envelope = <T extends v.GenericSchema>(data: T) =>
  v.strictObject({ success: described(v.literal(true), 'Always true on success.'), data });
export const pagedEnvelope = <T extends v.GenericSchema>(data: T) =>
  v.strictObject({
    success: described(v.literal(true), 'Always true on success.'),
    data,
    pagination: described(PagePagination, 'Where this page is in the list.'),
  });

export const HealthResponse = v.strictObject({ status: described(v.literal('ok'), 'Always `ok`: the API answers.') });
