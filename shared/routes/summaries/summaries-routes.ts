import { createSummaryDocs, createSummaryRoute } from './create-summary';
import { deleteSummaryDocs, deleteSummaryRoute } from './delete-summary';
import { getSummaryDocs, getSummaryRoute } from './get-summary';
import { listSummariesDocs, listSummariesRoute } from './list-summaries';
import { updateActionItemDocs, updateActionItemRoute } from './update-action-item';
import { defineRouteArea } from '../route-definition';

/** A recording's summaries and their action items (docs/summaries.md). In manifest order: reads, then changes, the delete last. */
export const SUMMARIES_ROUTES = defineRouteArea({
  area: 'summaries',
  // Deployed with the recordings' routes: /recordings/{recordingId} has one nested stack.
  stack: 'recordings',
  routes: [
    { route: listSummariesRoute, docs: listSummariesDocs },
    { route: getSummaryRoute, docs: getSummaryDocs },
    { route: createSummaryRoute, docs: createSummaryDocs },
    { route: updateActionItemRoute, docs: updateActionItemDocs },
    { route: deleteSummaryRoute, docs: deleteSummaryDocs },
  ],
});
