import { defineRouteArea } from '../route-definition';
import { askPublicQuestionDocs, askPublicQuestionRoute } from './ask-public-question';
import { askQuestionDocs, askQuestionRoute } from './ask-question';
import { searchPublicRecordingsDocs, searchPublicRecordingsRoute } from './search-public-recordings';
import { searchRecordingsDocs, searchRecordingsRoute } from './search-recordings';

/** Search across the organization's recordings (docs/search.md). */
export const SEARCH_ROUTES = defineRouteArea({
  area: 'search',
  stack: 'search',
  routes: [
    { route: searchRecordingsRoute, docs: searchRecordingsDocs },
    { route: searchPublicRecordingsRoute, docs: searchPublicRecordingsDocs },
    { route: askQuestionRoute, docs: askQuestionDocs },
    { route: askPublicQuestionRoute, docs: askPublicQuestionDocs },
  ],
});
