import { translateRecordingDocs, translateRecordingRoute } from './translate-recording';
import { defineRouteArea } from '../route-definition';

/** A recording's translations (docs/translations.md). */
export const TRANSLATIONS_ROUTES = defineRouteArea({
  area: 'translations',
  // Deployed with the recordings' routes: /recordings/{recordingId} has one nested stack.
  stack: 'recordings',
  routes: [{ route: translateRecordingRoute, docs: translateRecordingDocs }],
});
