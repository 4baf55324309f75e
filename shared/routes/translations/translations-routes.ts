import { translateRecordingDocs, translateRecordingRoute } from './translate-recording';

/** A recording's translations (docs/translations.md). In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const TRANSLATIONS_ROUTES = [{ route: translateRecordingRoute, docs: translateRecordingDocs }] as const;
