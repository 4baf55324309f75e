import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { recordAuditEntry } from '../../shared/domain/audit/record-audit-entry';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { processStreamRecords } from '../../shared/events/stream-processor';
import { readAuditPage } from '../../shared/storage/audit-log';
import { keys } from '../../shared/storage/keys';
import { localDeployment, unique } from '../support/api';

/**
 * The processor failing in the middle of a batch, with the real audit consumer storing into
 * DynamoDB Local: Lambda resumes the batch at the failed record, and may deliver the whole
 * batch again (at least once). No change may be lost, and none may be logged twice.
 */
const { db } = localDeployment();

function templateInsert(orgId: string, index: number, run: string): DynamoDBRecord {
  const at = new Date(Date.UTC(2026, 10, 1, 10, 0, index)).toISOString();
  const item = {
    ...keys.template(orgId, `tpl_${index}`),
    id: `tpl_${index}`,
    org_id: orgId,
    name: `Template ${index}`,
    description: '',
    sections: [],
    created_at: at,
    updated_at: at,
    last_change: { id: `stamp${index}`, actor: { kind: 'api_key', id: 'key_pipeline' }, correlation_id: `corr-${index}` },
  };
  return {
    eventID: `${run}-${index}`,
    eventName: 'INSERT',
    dynamodb: {
      Keys: marshall({ PK: item.PK, SK: item.SK }) as never,
      NewImage: marshall(item) as never,
      SequenceNumber: String(100 + index),
      ApproximateCreationDateTime: Date.parse(at) / 1000,
    },
  };
}

describe('the stream processor and the audit consumer under failures', () => {
  it('a batch that fails half way, resumed and then delivered again whole, logs each change exactly once', async () => {
    const orgId = `org_pipeline_${unique()}`;
    const run = unique();
    const records = Array.from({ length: 25 }, (_, i) => templateInsert(orgId, i, run));
    const audit = (events: readonly DomainEvent[]) =>
      Promise.all(events.map((event) => recordAuditEntry({ db, retentionDays: 365 }, event))).then(() => undefined);
    let published = 0;
    const failingOnce = async (events: readonly DomainEvent[]) => {
      // The bus goes away after the first ten events, for one call.
      if (published === 10) {
        published += 1;
        throw new Error('EventBridge unavailable');
      }
      published += events.length;
      await audit(events);
    };

    const first = await processStreamRecords(records, failingOnce);
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: records[10].dynamodb?.SequenceNumber }]);
    expect((await readAuditPage(db, { orgId }, { limit: 100 })).entries).toHaveLength(10);

    // Lambda resumes at the failed record; then, at least once, the whole batch comes again.
    expect((await processStreamRecords(records.slice(10), audit)).batchItemFailures).toEqual([]);
    expect((await processStreamRecords(records, audit)).batchItemFailures).toEqual([]);

    const { entries } = await readAuditPage(db, { orgId }, { limit: 100 });
    expect(entries).toHaveLength(25);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(25);
    expect(entries.map((entry) => entry.resource.id).sort()).toEqual(records.map((_, i) => `tpl_${i}`).sort());
    expect(entries[0]).toMatchObject({
      type: 'template.created',
      actor: { kind: 'api_key', id: 'key_pipeline' },
      correlation_id: 'corr-24',
    });
  });
});
