import { NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { Recording } from '../../storage/recording-items';
import type { RecordingParts } from '../../storage/recording-part-items';
import * as recordingStore from '../../storage/recordings';
import { getRecordingWithParts } from '../../storage/recordings';
import { getSummary } from '../../storage/summaries';
import { getDefaultTemplate } from '../../storage/templates';
import { featuredDigest } from '../summaries/summary-changes';
import { effectiveHold, type EffectiveHold } from '../governance/hold-checks';
import { getMembership } from '../../storage/memberships';
import type { RecordingSpeaker } from '../../storage/speaker-items';
import { measuredSpeakers } from '../speakers/speaker-names';

/** 404 RECORDING_NOT_FOUND: unknown, another organization's, or (for live reads) in the trash. */
export function recordingNotFound(recordingId: string): NotFoundError {
  return new NotFoundError('RECORDING_NOT_FOUND', `Recording ${recordingId} does not exist in this organization.`);
}

/**
 * A live recording of the organization, with its related items when asked: one GetItem,
 * or one Query over the recording's key range (recording and related items together).
 * Unknown, trashed and other organizations' recordings are all 404 RECORDING_NOT_FOUND.
 */
export async function readLiveRecording(
  db: TableContext,
  orgId: string,
  recordingId: string,
  withParts = false,
): Promise<{ recording: Recording; parts: RecordingParts }> {
  const { recording, parts } = withParts
    ? await getRecordingWithParts(db, orgId, recordingId)
    : { recording: await recordingStore.getRecording(db, orgId, recordingId), parts: {} };
  if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
  return { recording, parts };
}

/**
 * Get recording with its related items: with `include=summary` or `include=action_items`, a
 * recording whose summaries were written shows the summary its digest points to (the latest
 * completed with the organization's default template, else the latest completed): one more
 * GetItem for the default template and one for that summary, never all of them.
 */
export async function getRecording(
  db: TableContext,
  orgId: string,
  recordingId: string,
  include: readonly string[],
): Promise<{ recording: Recording; parts: RecordingParts; hold: EffectiveHold | null; speakers?: RecordingSpeaker[] }> {
  const read = await readLiveRecording(db, orgId, recordingId, include.length > 0);
  // The hold shown: the recording's own, else its recorder's (one GetItem, beside the parts).
  const [hold, withParts, speakers] = await Promise.all([
    effectiveHold(db, read.recording),
    withFeaturedSummary(db, orgId, recordingId, include, read),
    speakersToShow(db, read.recording, read.parts),
  ]);
  return { ...withParts, hold, speakers };
}

/**
 * The speakers of the recording as read: stored with its transcript, or for a transcript stored
 * before speakers were, measured from its turns (a single voice: the recorder's, one GetItem).
 */
export async function speakersToShow(
  db: TableContext,
  recording: Recording,
  parts: RecordingParts,
): Promise<RecordingSpeaker[] | undefined> {
  if (recording.speakers || !parts.transcript) return recording.speakers;
  return measuredSpeakers(parts.transcript.segments, () => getMembership(db, recording.org_id, recording.recorded_by));
}

async function withFeaturedSummary(
  db: TableContext,
  orgId: string,
  recordingId: string,
  include: readonly string[],
  read: { recording: Recording; parts: RecordingParts },
): Promise<{ recording: Recording; parts: RecordingParts }> {
  const { recording } = read;
  if (!recording.summaries || !(include.includes('summary') || include.includes('action_items'))) return read;
  const { summary: _fixtureSummary, action_items: _fixtureItems, ...parts } = read.parts;
  const featured = recording.summaries.some((digest) => digest.status === 'completed')
    ? featuredDigest(recording, (await getDefaultTemplate(db, orgId))?.id)
    : undefined;
  const summary = featured && (await getSummary(db, orgId, recordingId, featured.id));
  if (!summary) return { recording, parts };
  return {
    recording,
    parts: {
      ...parts,
      summary: {
        markdown: summary.markdown,
        template_id: summary.template_id,
        template_name: summary.template_name,
        created_at: summary.created_at,
        updated_at: summary.updated_at,
      },
      action_items: summary.action_items,
    },
  };
}
