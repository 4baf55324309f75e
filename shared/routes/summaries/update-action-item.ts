import { UpdateActionItemBody } from '../../schemas/summaries';
import { SummaryResponse } from '../../schemas/summary-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { fixtureSummaryId, sampleSummary } from './summary-docs';

export const updateActionItemRoute = defineRoute({
  name: 'updateActionItem',
  method: 'PATCH',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}/action-items/{itemId}',
  handler: 'functions/summaries/update-action-item',
  summary: 'Mark an action item done or not',
  access: orgRoute('member', 'recordings:write'),
  permissions: { table: ['GetItem', 'PutItem'] },
  request: { body: UpdateActionItemBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateActionItemDocs = (): OperationDocs => ({
  description:
    "Sets an action item's `completed`. Members change the action items of their own recordings (another member's is 403 INSUFFICIENT_ROLE), admins and owners anyone's, organization keys with `recordings:write` any. Answers the whole summary.",
  responses: { 200: SummaryResponse },
  errors: {
    403: ['INSUFFICIENT_ROLE'],
    404: ['RECORDING_NOT_FOUND', 'SUMMARY_NOT_FOUND', 'ACTION_ITEM_NOT_FOUND'],
    409: ['CONCURRENT_UPDATE'],
  },
  examples: {
    request: { completed: true },
    responses: { 200: { ...sampleSummary, action_items: [{ ...sampleSummary.action_items[0], completed: true }] } },
  },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.recordingId, summaryId: fixtureSummaryId(ids.recordingId), itemId: `${ids.recordingId}_action_1` },
    body: { completed: true },
    status: 200,
  }),
});
