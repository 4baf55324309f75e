import type { Caller } from '../../auth/policy';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors';
import type { FieldProblem } from '../../core/errors';
import type { UpdateSpeakersBody } from '../../schemas/transcript-controls';
import type { TableContext } from '../../storage/dynamo';
import { getMembership, getMemberships } from '../../storage/memberships';
import type { Recording } from '../../storage/recording-items';
import { commitSpeakerNames } from '../../storage/recording-speakers';
import { getRecording, getRecordingWithParts } from '../../storage/recordings';
import type { RecordingSpeaker } from '../../storage/speaker-items';
import { recordingNotFound } from '../recordings/get-recording';
import { retryUntilCommitted, type RecordingDeps } from '../recordings/recording-changes';
import { restampedAt } from '../transcription/transcription-changes';
import { measuredSpeakers, speakerView, type SpeakerView } from './speaker-names';

/**
 * The speakers of a recording's transcript as stored, or as measured from its turns for a
 * transcript stored before speakers were (one Query more, and the recorder's membership when
 * it has a single voice); undefined when it has no transcript.
 */
export async function speakersOf(db: TableContext, recording: Recording): Promise<RecordingSpeaker[] | undefined> {
  if (recording.speakers) return recording.speakers;
  if (!recording.related.transcript) return undefined;
  const { parts } = await getRecordingWithParts(db, recording.org_id, recording.id);
  if (!parts.transcript) return undefined;
  return measuredSpeakers(parts.transcript.segments, () => getMembership(db, recording.org_id, recording.recorded_by));
}

const invalid = (problems: FieldProblem[]) => ValidationError.of(problems, 'INVALID_SPEAKERS');

/**
 * Update speakers (both hosts): names speakers of a recording's transcript by label, as members
 * (their display name now) or by a name; `name: null` returns to the label. Admins and
 * organization keys name anyone's, a member their own recordings' (another's is 403, as for
 * action items), a personal key its member's (another's is 404). One read of the recording,
 * one of the members named, one write; nothing re-runs.
 */
export async function renameSpeakers(
  deps: RecordingDeps,
  caller: Caller,
  recordingId: string,
  body: UpdateSpeakersBody,
): Promise<{ recording: Recording; speakers: SpeakerView[] }> {
  const { db } = deps;
  const userIds = [...new Set(body.speakers.flatMap((entry) => ('user_id' in entry ? [entry.user_id] : [])))];
  return retryUntilCommitted(async () => {
    const recording = await getRecording(db, caller.orgId, recordingId, { consistent: true });
    if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
    if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
    if (caller.kind === 'id_token' && caller.role === 'member' && recording.recorded_by !== caller.userId)
      throw new ForbiddenError('INSUFFICIENT_ROLE', "Members name the speakers of their own recordings only; an admin names anyone's.");
    const [current, members] = await Promise.all([speakersOf(db, recording), getMemberships(db, caller.orgId, userIds)]);
    if (!current) throw new NotFoundError('TRANSCRIPT_NOT_FOUND', `Recording ${recordingId} has no transcript yet.`);

    const labels = new Set(current.map((speaker) => speaker.label));
    const active = new Map(members.filter((member) => member.status === 'active').map((member) => [member.user_id, member]));
    const problems: FieldProblem[] = [];
    const seen = new Set<string>();
    body.speakers.forEach((entry, index) => {
      if (!labels.has(entry.label))
        problems.push({
          field: `speakers[${index}].label`,
          issue: 'invalid_value',
          message: `is not a speaker of this transcript (its labels: ${[...labels].join(', ')})`,
        });
      else if (seen.has(entry.label)) problems.push({ field: `speakers[${index}].label`, issue: 'repeated', message: 'is named twice' });
      seen.add(entry.label);
      if ('user_id' in entry && !active.has(entry.user_id))
        problems.push({
          field: `speakers[${index}].user_id`,
          issue: 'invalid_value',
          message: 'is not an active member of the organization',
        });
    });
    if (problems.length) throw invalid(problems);

    const naming = new Map(body.speakers.map((entry) => [entry.label, entry]));
    const next = current.map((speaker): RecordingSpeaker => {
      const entry = naming.get(speaker.label);
      if (!entry) return speaker;
      if ('user_id' in entry) return { ...speaker, name: active.get(entry.user_id)!.display_name, user_id: entry.user_id };
      return { ...speaker, name: entry.name, user_id: null };
    });
    if (JSON.stringify(next) === JSON.stringify(recording.speakers)) return { recording, speakers: next.map(speakerView) };
    const after: Recording = { ...recording, speakers: next, updated_at: restampedAt(recording, deps.now()) };
    await commitSpeakerNames(db, recording, after);
    return { recording: after, speakers: next.map(speakerView) };
  });
}
