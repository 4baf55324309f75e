import { PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OrgKeyCaller, UserKeyCaller } from '../../shared/auth/policy';
import { getRecordingMedia, type MediaDeps } from '../../shared/domain/recordings/get-recording-media';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { createRecordingObjects, recordingObjectKey } from '../../shared/storage/recording-objects';
import { localDeployment, localS3, seed, unique } from '../support/api';

/**
 * Get recording media's domain function called directly, with a chosen clock: how long its URL
 * works (the S3 emulator refuses an expired pre-signed URL, as S3 does), and what one request
 * costs (the figures of docs/playback.md).
 */
const { runtime, db } = localDeployment();
const TTL_SECONDS = 900;
const MARGIN_SECONDS = 30;
const FILENAME = 'standup.m4a';
const BYTES = Buffer.from('fake-audio-bytes-for-playback');

/** An organization with one member's recording whose file was uploaded (the object is in the emulator's bucket). */
async function uploadedRecording() {
  const id = unique();
  const orgId = `org_dmedia_${id}`;
  const userId = `usr_dmedia_${id}`;
  const recordingId = `rec_dmedia_${id}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Media ${id}` }],
    users: [{ id: userId, email: `mo.${id}@example.com`, display_name: 'Mo' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'member' }],
    recordings: [{ id: recordingId, org_id: orgId, recorded_by: userId, title: 'Standup', duration: 3, language: 'en', state: 'uploaded' }],
  });
  const s3Key = recordingObjectKey(orgId, recordingId, FILENAME);
  const { s3, bucket } = localS3();
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: s3Key, Body: BYTES, ContentType: 'audio/mp4' }));
  // As the upload completion leaves it.
  const upload = {
    s3_key: s3Key,
    content_type: 'audio/mp4',
    filename: FILENAME,
    size_bytes: BYTES.length,
    uploaded_bytes: BYTES.length,
    uploaded_content_type: 'audio/mp4',
    uploaded_at: new Date().toISOString(),
  };
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.recording(orgId, recordingId),
      UpdateExpression: 'SET upload = :upload',
      ExpressionAttributeValues: { ':upload': upload },
    }),
  );
  const orgKey: OrgKeyCaller = { kind: 'org_key', orgId, keyId: `key_${id}`, scopes: ['recordings:read'], actor: `key_${id}` };
  const personalKey: UserKeyCaller = {
    kind: 'user_key',
    orgId,
    userId,
    keyId: `key_u_${id}`,
    role: 'member',
    scopes: ['recordings:read'],
    actor: userId,
  };
  return { recordingId, orgKey, personalKey };
}

const emulatorObjects = () => createRecordingObjects({ bucket: runtime.bucketName, region: runtime.region, endpoint: runtime.s3Endpoint });
const depsAt = (now: Date, overrides: Partial<MediaDeps> = {}): MediaDeps => ({
  db,
  objects: emulatorObjects(),
  now: () => now,
  urlTtlSeconds: TTL_SECONDS,
  ...overrides,
});

describe('recordingMedia: the URL works for MEDIA_URL_TTL_SECONDS from the request, no longer', () => {
  // The emulator checks expiry on its own (real) clock, so the URLs sit MARGIN_SECONDS either side of
  // the limit: wide enough for a loaded machine between signing and fetching, narrow against the TTL.
  it('signed 14 minutes 30 s ago it still plays; signed 15 minutes 30 s ago S3 refuses it as expired', async () => {
    const { recordingId, orgKey } = await uploadedRecording();
    const now = Date.now();

    const fresh = await getRecordingMedia(depsAt(new Date(now - (TTL_SECONDS - MARGIN_SECONDS) * 1000)), orgKey, recordingId);
    expect(Date.parse(fresh.expires_at)).toBe(now + MARGIN_SECONDS * 1000);
    const played = await fetch(fresh.url);
    expect(played.status).toBe(200);
    expect(Buffer.from(await played.arrayBuffer()).equals(BYTES)).toBe(true);

    const stale = await getRecordingMedia(depsAt(new Date(now - (TTL_SECONDS + MARGIN_SECONDS) * 1000)), orgKey, recordingId);
    expect(Date.parse(stale.expires_at)).toBe(now - MARGIN_SECONDS * 1000);
    const refused = await fetch(stale.url);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Request has expired');
  });
});

describe('recordingMedia: what one request costs', () => {
  /** The table context, counting each command sent through it by name. */
  function countingTable(): { table: TableContext; sent: string[] } {
    const sent: string[] = [];
    const client = {
      send: (command: { constructor: { name: string } }) => (sent.push(command.constructor.name), db.client.send(command as never)),
    };
    return { table: { tableName: db.tableName, client: client as unknown as DynamoDBDocumentClient }, sent };
  }

  it('one GetItem and a local signature: no S3 request (the objects point at a port nothing listens on)', async () => {
    const { recordingId, orgKey, personalKey } = await uploadedRecording();
    const unreachable = createRecordingObjects({ bucket: runtime.bucketName, region: runtime.region, endpoint: 'http://127.0.0.1:9' });
    for (const caller of [orgKey, personalKey]) {
      const { table, sent } = countingTable();
      const media = await getRecordingMedia(
        { db: table, objects: unreachable, now: () => new Date(), urlTtlSeconds: TTL_SECONDS },
        caller,
        recordingId,
        'attachment',
      );
      expect(new URL(media.url).origin).toBe('http://127.0.0.1:9');
      expect(sent).toEqual(['GetCommand']);
    }
  });

  it('a refusal costs the same single GetItem (not found, or not uploaded)', async () => {
    const { orgKey, personalKey } = await uploadedRecording();
    const noFile = `rec_dmedia_nofile_${unique()}`;
    await seed(db, {
      recordings: [{ id: noFile, org_id: orgKey.orgId, recorded_by: personalKey.userId, title: 'No file', duration: 1, language: 'en' }],
    });
    for (const [recordingId, refusal] of [
      [`rec_none_${unique()}`, { statusCode: 404, code: 'RECORDING_NOT_FOUND' }],
      [noFile, { statusCode: 409, code: 'RECORDING_NOT_UPLOADED' }],
    ] as const) {
      const { table, sent } = countingTable();
      await expect(
        getRecordingMedia(
          { db: table, objects: emulatorObjects(), now: () => new Date(), urlTtlSeconds: TTL_SECONDS },
          orgKey,
          recordingId,
        ),
      ).rejects.toMatchObject(refusal);
      expect(sent).toEqual(['GetCommand']);
    }
  });
});
