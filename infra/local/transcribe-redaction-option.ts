import { expandEntityTypes, PII_ENTITY_TYPES, type PiiEntityType } from '../../shared/core/pii-entity-types';
import { ServiceError } from './transcribe-service-error';

/**
 * A job's ContentRedaction, checked as Transcribe checks it: PII, `redacted` output only here (the
 * stand-in keeps no unredacted copy either), en-US or es-US, never with language identification.
 */
export function redactionOf(value: unknown, languageCode: string | undefined, identifyLanguage: boolean): PiiEntityType[] | undefined {
  if (value === undefined) return undefined;
  const redaction = value as { RedactionType?: unknown; RedactionOutput?: unknown; PiiEntityTypes?: unknown };
  if (redaction.RedactionType !== 'PII' || redaction.RedactionOutput !== 'redacted')
    throw new ServiceError(
      'BadRequestException',
      'ContentRedaction: the local stand-in takes RedactionType PII with RedactionOutput redacted.',
    );
  if (identifyLanguage || !languageCode || !['en-US', 'es-US'].includes(languageCode))
    throw new ServiceError(
      'BadRequestException',
      'Content redaction is supported only for en-US and es-US, and not with language identification.',
    );
  const asked = Array.isArray(redaction.PiiEntityTypes) ? (redaction.PiiEntityTypes as string[]) : ['ALL'];
  if (!asked.every((type) => type === 'ALL' || (PII_ENTITY_TYPES as readonly string[]).includes(type)))
    throw new ServiceError('BadRequestException', 'PiiEntityTypes holds a type Transcribe does not know.');
  return expandEntityTypes(asked as (PiiEntityType | 'ALL')[]);
}
