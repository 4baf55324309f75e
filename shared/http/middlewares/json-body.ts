import { InvalidJsonError, UnsupportedMediaTypeError } from '../../core/errors';
import { headerValue } from '../gateway';
import type { HttpMiddleware } from '../http-context';

/** application/json and every structured `+json` type (application/merge-patch+json, …), any parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Parses the JSON body of routes that take one, onto `context.jsonBody`. A body with no
 * content type, or a JSON one, is parsed; any other media type is 415; text that is not
 * JSON is 400 INVALID_JSON. (middy's http-json-body-parser 6 answers 415 for both of
 * those and refuses a missing content type: docs/decisions.md.)
 */
export function jsonBodyParser(): HttpMiddleware {
  return {
    before: ({ event, context }) => {
      if (event.body === null || event.body === undefined || event.body === '') return;
      const contentType = headerValue(event.headers, 'content-type')?.trim();
      if (contentType && !JSON_MEDIA_TYPE.test(contentType)) throw new UnsupportedMediaTypeError(contentType);
      const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      try {
        context.jsonBody = JSON.parse(text);
      } catch {
        throw new InvalidJsonError();
      }
    },
  };
}
