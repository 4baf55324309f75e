import { createHash } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { principalFromContext } from '../../shared/auth/principal';
import { eventsOfRecord } from '../../shared/events/change-events';
import { EVENT_SOURCE, type Actor, type DomainEvent } from '../../shared/schemas/event-catalog';
import { EVENT_CONSUMERS, type EventConsumerDefinition, type EventConsumerName } from '../../shared/events/event-functions';
import type { ChangeStamp } from '../../shared/storage/change-stamp';
import { inviteItem, QUEUED_DELIVERY, type InviteRecord } from '../../shared/storage/invite-items';
import { keys } from '../../shared/storage/keys';
import { membershipItem, type Membership } from '../../shared/storage/membership-items';
import { TABLE } from '../../shared/storage/table-definition';
import { templateItem, type TemplateRecord } from '../../shared/storage/template-items';
import { trashTimerItem } from '../../shared/storage/trash-timers';
import { deliveryItem, type DeliveryRecord } from '../../shared/storage/webhook-items';
import { consumerDeployedName } from '../deployed-names';
import type { SampleSetup } from './sample-setup';
import { summaryStreamChanges } from './summary-events';
import { sampleTranscribeJobEvent, transcriptionStreamChanges } from './transcription-events';
import { translationStreamChange } from './translation-events';
import { exportStreamInsert } from './export-events';
import { erasureStreamInsert } from './erasure-events';
import { vocabularyStreamInsert } from './vocabulary-events';

/**
 * The sample events of the event pipeline's functions (infra/sam/function-events.ts lists them
 * with the others): the table stream batch the event processor receives, and for each
 * consumer the SQS messages its queue delivers. The consumers' events are the processor's own
 * derivation of that batch (shared/events/change-events.ts), so they are exactly what the
 * pipeline would carry; each consumer gets those of the types its rule matches.
 *
 * The batch holds these changes of the sample data: the template update and the invitation
 * resend of the sample requests, a permanent delete (the tombstone of a recording), DynamoDB
 * TTL removing a trash timer (the trash's retention running out), and the webhook delivery
 * retry of the sample requests (a new dispatch id: the dispatcher's cue), a member removed; then an upload that
 * landed and its automatic transcription queued (infra/sam/transcription-events.ts), and a
 * translation queued (infra/sam/translation-events.ts), a member export asked for (infra/sam/export-events.ts), and a
 * member erasure asked for (infra/sam/erasure-events.ts).
 */

// Fixed moments and stream metadata, so regenerating the events gives the same files.
const CHANGED_AT = '2026-11-16T09:30:00.000Z';
const EARLIER = '2026-11-02T10:00:00.000Z';
const STREAM_LABEL = '2026-11-01T00:00:00.000';

/** The change stamp a write carries (shared/storage/change-stamp.ts), with a fixed id. */
function stampFor(name: string, actor: Actor | null, correlationId: string | null, reason?: string): { last_change: ChangeStamp } {
  const id = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return { last_change: { id, actor, correlation_id: correlationId, ...(reason ? { reason } : {}) } };
}

type Item = Record<string, unknown>;

/** One record of the table's stream (NEW_AND_OLD_IMAGES), as Lambda's event source hands it over. */
function streamRecord(
  setup: SampleSetup,
  index: number,
  change: { eventName: 'INSERT' | 'MODIFY' | 'REMOVE'; before?: Item; after?: Item; byTtl?: boolean },
): DynamoDBRecord {
  const image = change.after ?? change.before!;
  const key = { [TABLE.partitionKey]: image[TABLE.partitionKey], [TABLE.sortKey]: image[TABLE.sortKey] };
  const options = { removeUndefinedValues: true };
  const newImage = change.after && marshall(change.after, options);
  const oldImage = change.before && marshall(change.before, options);
  return {
    eventID: createHash('sha256').update(`sample-stream-${index}`).digest('hex').slice(0, 32),
    eventName: change.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: setup.region,
    dynamodb: {
      ApproximateCreationDateTime: Date.parse(CHANGED_AT) / 1000,
      Keys: marshall(key) as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
      ...(newImage ? { NewImage: newImage as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'] } : {}),
      ...(oldImage ? { OldImage: oldImage as NonNullable<DynamoDBRecord['dynamodb']>['OldImage'] } : {}),
      SequenceNumber: String(4_200_000_000_000_000_000n + BigInt(index)),
      SizeBytes: JSON.stringify([newImage, oldImage]).length,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    // DynamoDB's own identity marks a removal by TTL.
    ...(change.byTtl ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
    eventSourceARN: `arn:aws:dynamodb:${setup.region}:123456789012:table/VoiceOrgApi-${setup.stage}-TableCD117FA1-EXAMPLE/stream/${STREAM_LABEL}`,
  };
}

/** The stream batch of the event processor: nine committed changes of the sample organization. */
export function sampleStreamEvent(setup: SampleSetup): DynamoDBStreamEvent {
  const { ids } = setup;
  // The sample requests' caller: the org key (shared/events/actor.ts names a key by its id).
  const principal = principalFromContext(setup.credentials.orgKey.context);
  if (principal?.kind !== 'org_key') throw new Error('The sample org key credential has no org key context');
  const orgKey: Actor = { kind: 'api_key', id: principal.keyId };
  const ownerId = `${ids.orgId.replace(/^org_/, 'usr_')}_owner`;

  // Update template (the sample request's new description).
  const template: TemplateRecord = {
    id: ids.templateId,
    org_id: ids.orgId,
    name: 'Sales call',
    description: 'For customer calls: needs, objections, next steps.',
    sections: [{ title: 'Customer needs', prompt: 'List what the customer said they need, in their words.' }],
    created_at: EARLIER,
    updated_at: EARLIER,
  };
  const templateBefore = { ...templateItem(template), ...stampFor('template-created', orgKey, 'sample-createTemplate') };
  const templateAfter = {
    ...templateItem({ ...template, description: 'For customer calls: needs, objections, next steps, risks.', updated_at: CHANGED_AT }),
    ...stampFor('template-updated', orgKey, 'sample-updateTemplate'),
  };

  // Resend invite: a new send (new expiry, resent_at), its email queued for the invitation mail consumer.
  const invite: InviteRecord = {
    id: ids.resendInviteId,
    org_id: ids.orgId,
    email: `rita.resend@${ids.orgId.replace(/^org_/, '').replace(/_/g, '-')}.example`,
    role: 'member',
    status: 'pending',
    created_at: EARLIER,
    updated_at: EARLIER,
    expires_at: '2026-11-09T10:00:00.000Z',
    invited_by: ownerId,
    delivery: { status: 'sent', sent_at: EARLIER, attempts: 1, last_error: null },
  };
  const inviteBefore = { ...inviteItem(invite), ...stampFor('invite-sent', orgKey, 'sample-sendInvite') };
  const inviteAfter = {
    ...inviteItem({
      ...invite,
      updated_at: CHANGED_AT,
      resent_at: CHANGED_AT,
      expires_at: '2026-11-23T09:30:00.000Z',
      delivery: QUEUED_DELIVERY,
    }),
    ...stampFor('invite-resent', orgKey, 'sample-resendInvite'),
  };

  // A permanent delete: the tombstone written in its transaction (its INSERT is recording.deleted).
  const tombstone = {
    ...keys.tombstone(ids.orgId, 'recording', ids.editRecordingId),
    resource: 'recording',
    org_id: ids.orgId,
    id: ids.editRecordingId,
    deleted_at: CHANGED_AT,
    recorded_by: ownerId,
    [TABLE.ttlAttribute]: Date.parse(CHANGED_AT) / 1000 + 7 * 86_400,
    ...stampFor('recording-deleted', orgKey, 'sample-deleteRecording'),
  };

  // The trash timer of a recording trashed 30 days before, removed by TTL (recording.retention_due).
  const timer = {
    ...trashTimerItem({
      org_id: ids.orgId,
      recording_id: ids.trashedRecordingId,
      deleted_at: '2026-10-17T09:00:00.000Z',
      purge_at: '2026-11-16T09:00:00.000Z',
    }),
  };

  // Retry webhook delivery: the failed delivery back to pending under a new dispatch id.
  const delivery: DeliveryRecord = {
    id: ids.deliveryId,
    org_id: ids.orgId,
    webhook_id: ids.webhookId,
    event_id: `evt_${createHash('sha256').update('sample-delivered-event').digest('hex').slice(0, 32)}`,
    event_type: 'invite.accepted',
    payload: '{}',
    status: 'failed',
    attempts: 8,
    created_at: EARLIER,
    last_attempt_at: EARLIER,
    next_attempt_at: null,
    response_status: 503,
    response_ms: 120,
    error: 'non_2xx',
    dispatch_id: 'a1b2c3d4e5f60718',
  };
  const expires = Date.parse(EARLIER) / 1000 + 30 * 86_400;
  const deliveryBefore = deliveryItem(delivery, expires);
  const deliveryAfter = deliveryItem(
    { ...delivery, status: 'pending', next_attempt_at: CHANGED_AT, dispatch_id: '0f1e2d3c4b5a6978' },
    expires,
  );

  // Remove member: the viewer's membership goes from active to removed (member.removed; their personal keys are then revoked).
  const membership: Membership = {
    org_id: ids.orgId,
    user_id: ids.managedMemberId,
    email: `victor.viewer@${ids.orgId.replace(/^org_/, '').replace(/_/g, '-')}.example`,
    display_name: 'Victor Viewer',
    role: 'viewer',
    status: 'active',
    member_since: EARLIER,
    created_at: EARLIER,
    updated_at: EARLIER,
    recording_count: 0,
    latest_recording_at: null,
  };
  const membershipBefore = { ...membershipItem(membership), ...stampFor('member-joined', orgKey, 'sample-acceptInvite') };
  const membershipAfter = {
    ...membershipItem({ ...membership, status: 'removed', updated_at: CHANGED_AT }),
    ...stampFor('member-removed', orgKey, 'sample-removeMember'),
  };

  return {
    Records: [
      streamRecord(setup, 0, { eventName: 'MODIFY', before: templateBefore, after: templateAfter }),
      streamRecord(setup, 1, { eventName: 'MODIFY', before: inviteBefore, after: inviteAfter }),
      streamRecord(setup, 2, { eventName: 'INSERT', after: tombstone }),
      streamRecord(setup, 3, { eventName: 'REMOVE', before: timer, byTtl: true }),
      streamRecord(setup, 4, { eventName: 'MODIFY', before: deliveryBefore, after: deliveryAfter }),
      streamRecord(setup, 5, { eventName: 'MODIFY', before: membershipBefore, after: membershipAfter }),
      ...[
        ...transcriptionStreamChanges(setup, { earlier: EARLIER, changed: CHANGED_AT }, (name, actor) => stampFor(name, actor, null)),
        ...summaryStreamChanges(setup, { earlier: EARLIER, changed: CHANGED_AT }, (name, actor) => stampFor(name, actor, null)),
        translationStreamChange(setup, { earlier: EARLIER, changed: CHANGED_AT }, (name, actor) => stampFor(name, actor, null)),
      ].map((change, index) => streamRecord(setup, 6 + index, { eventName: 'MODIFY', ...change })),
      // Numbered from the end of the batch above, so its records keep their ids.
      streamRecord(setup, 100, {
        eventName: 'INSERT',
        ...exportStreamInsert(setup, { changed: CHANGED_AT }, (name, actor) => stampFor(name, actor, null)),
      }),
      streamRecord(setup, 101, {
        eventName: 'INSERT',
        ...erasureStreamInsert(setup, { changed: CHANGED_AT }, (name, actor) => stampFor(name, actor, null)),
      }),
      streamRecord(setup, 102, {
        eventName: 'INSERT',
        ...vocabularyStreamInsert(setup, { changed: CHANGED_AT }, (name, actor) => stampFor(name, actor, null)),
      }),
    ],
  };
}

/** The domain events the processor derives from the sample stream batch, in order. */
export function sampleDomainEvents(setup: SampleSetup): DomainEvent[] {
  return sampleStreamEvent(setup).Records.flatMap((record) => eventsOfRecord(record));
}

/** The SQS messages a consumer's queue delivers for the sample batch: the events its rule matches, as EventBridge puts them on the queue. */
export function sampleConsumerEvent(setup: SampleSetup, consumer: EventConsumerName): SQSEvent {
  const definition: EventConsumerDefinition = EVENT_CONSUMERS[consumer];
  const types: readonly string[] = definition.eventTypes;
  const events = sampleDomainEvents(setup).filter((event) => types.includes(event.type));
  // A consumer of an AWS service's events (the transcription finisher): Transcribe's job state change.
  const serviceBodies = definition.serviceEvents?.length ? [JSON.stringify(sampleTranscribeJobEvent(setup, CHANGED_AT))] : [];
  if (!events.length && !serviceBodies.length)
    throw new Error(`The sample stream batch has no event for ${consumer} (${types.join(', ')})`);
  const account = '123456789012';
  // The queue and message ids follow the deployed name, which stays put when a consumer is renamed.
  const deployed = consumerDeployedName(consumer);
  const queueName = `VoiceOrgApi-${setup.stage}-${deployed.charAt(0).toUpperCase()}${deployed.slice(1)}Queue-EXAMPLE`;
  const bodies = [
    ...events.map((event) => {
      const bridged = {
        version: '0',
        id: uuidOf(`bridge-${event.id}`),
        'detail-type': event.type,
        source: EVENT_SOURCE,
        account,
        time: event.occurred_at.replace(/\.\d{3}Z$/, 'Z'),
        region: setup.region,
        resources: [],
        detail: event,
      };
      return JSON.stringify(bridged);
    }),
    ...serviceBodies,
  ];
  return {
    Records: bodies.map((body, index) => {
      return {
        messageId: uuidOf(`message-${deployed}-${index}`),
        receiptHandle: `AQEB${createHash('sha256').update(`receipt-${deployed}-${index}`).digest('base64')}`,
        body,
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(Date.parse(CHANGED_AT)),
          SenderId: 'AIDAIENQZJOLO23YVJ4VO',
          ApproximateFirstReceiveTimestamp: String(Date.parse(CHANGED_AT) + 20),
        },
        messageAttributes: {},
        md5OfBody: createHash('md5').update(body).digest('hex'),
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:${setup.region}:${account}:${queueName}`,
        awsRegion: setup.region,
      };
    }),
  };
}

/** A stable UUID-shaped id from a name. */
function uuidOf(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
