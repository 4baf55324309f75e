import { described, envelope } from './envelopes';
import { Translation } from './recording-responses';

/* The translation routes' responses, for the OpenAPI document and the contract check. */

/** Translate recording, organization host: the Translation, queued. */
export const TranslationResponse = described(Translation, 'The translation, with `processing_status: queued`.');

/** Translate recording, public host: the Translation in the envelope. */
export const PublicTranslationResponse = envelope(TranslationResponse);
