import { listRecordings } from '../../shared/domain/recordings/list-recordings';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listRecordingsRoute } from '../../shared/routes/recordings/list-recordings';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/organization/{orgId}/recordings */
export const handler = apiHandler(listRecordingsRoute, async ({ caller, query }) => {
  const list = await listRecordings(recordingDeps().db, caller, query);
  return json(200, list);
});
