import type { ErasureJobDeps } from '../domain/erasures/erasure-steps';
import type { StartErasureDeps } from '../domain/erasures/start-member-erasure';
import { searchIndex } from '../search/search-client';
import { table } from '../storage/dynamo';
import { recordingObjects } from '../storage/recording-objects';

/**
 * The erasures area's composition root: the routes need the table and the clock; the job also
 * the bucket and the search index (absent in a deployment without search).
 */
let requests: StartErasureDeps | undefined;
let job: ErasureJobDeps | undefined;

export function erasureDeps(): StartErasureDeps {
  return (requests ??= { db: table(), now: () => new Date() });
}

export function erasureJobDeps(): ErasureJobDeps {
  return (job ??= { db: table(), now: () => new Date(), objects: recordingObjects(), index: searchIndex() });
}
