import { apiKeyListCursor } from '../../shared/domain/api-keys/api-key-views';
import { auditLogCursor } from '../../shared/domain/audit/list-audit-log';
import { recordingListCursor } from '../../shared/domain/recordings/list-recordings';
import { deliveryListCursor } from '../../shared/domain/webhooks/deliveries';
import type { KeysetCursor } from '../../shared/core/keyset-cursor';
import type { AuditFilter } from '../../shared/storage/audit-log';
import type { RecordingFilter } from '../../shared/storage/recording-index';

/**
 * The four lists read by position share one keyset cursor (shared/core/keyset-cursor.ts).
 * Clients hold cursors across a deployment, so the cursors below, issued by each list's own
 * encoder before the lists shared one (captured at 8b6d751), must still lead to the same
 * page, and be refused the same way with other filters.
 */
const ISSUED_BEFORE = {
  // recording-cursor.ts: encodeCursor('2026-01-10T09:00:00.000Z#rec_1', 3, recordingsFilter)
  recordings: 'eyJhIjoiMjAyNi0wMS0xMFQwOTowMDowMC4wMDBaI3JlY18xIiwicCI6MywiZiI6ImZQSFgyZkptSzFaQm5aODEifQ',
  // encodeCursor('2026-01-10T09:00:00.000Z#rec_1', 2, { orgId: 'org_1', bin: 'TRASH', tagMode: 'any' })
  trash: 'eyJhIjoiMjAyNi0wMS0xMFQwOTowMDowMC4wMDBaI3JlY18xIiwicCI6MiwiZiI6IkNEV1ZRRjhMYWU1N3JCWFIifQ',
  // audit-cursor.ts: encodeAuditCursor(AUDIT_KEY, 2, auditFilter)
  audit:
    'eyJhIjoiMjAyNi0wMy0wMlQxMDowMDowMC4wMDBaI2V2dF8wMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZiIsInAiOjIsImYiOiJFQVZwQml2WVBDOWlNTTN1In0',
  // encodeAuditCursor(AUDIT_KEY, 4, { orgId: 'org_1' })
  wholeAudit:
    'eyJhIjoiMjAyNi0wMy0wMlQxMDowMDowMC4wMDBaI2V2dF8wMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZiIsInAiOjQsImYiOiJXVDZIUUVQQU12TEk3eXFNIn0',
  // webhooks/deliveries.ts: encodeDeliveryCursor(DELIVERY, 'org_1', 'wh_1', undefined)
  deliveries: 'eyJhIjoiZGx2XzAwMDAwMTljMGExYjJjM2Q0ZTVmNjA3MTgyOTNhNGI1IiwiZiI6IkpCRW11aFM0bDZDMjZGeHMifQ',
  // encodeDeliveryCursor(DELIVERY, 'org_1', 'wh_1', 'failed')
  failedDeliveries: 'eyJhIjoiZGx2XzAwMDAwMTljMGExYjJjM2Q0ZTVmNjA3MTgyOTNhNGI1IiwiZiI6IlJIalhFeWNCX19WNVBkSHYifQ',
  // api-keys.ts: encodeCursor(KEY_POSITION, 'org_1#*'), the fingerprint unhashed
  apiKeys: 'eyJjIjoiMjAyNi0wMi0wMVQxMjowMDowMC4wMDBaIiwiayI6ImtleV8wMTIzNDU2Nzg5YWJjZGVmIiwiZiI6Im9yZ18xIyoifQ',
  // encodeCursor(KEY_POSITION, 'org_1#usr_1')
  memberApiKeys: 'eyJjIjoiMjAyNi0wMi0wMVQxMjowMDowMC4wMDBaIiwiayI6ImtleV8wMTIzNDU2Nzg5YWJjZGVmIiwiZiI6Im9yZ18xI3Vzcl8xIn0',
};

const recordingsFilter: RecordingFilter = {
  orgId: 'org_1',
  bin: 'LIVE',
  from: '2026-01-01T00:00:00.000Z',
  tagIds: ['tag_a'],
  tagMode: 'any',
};
const trashFilter: RecordingFilter = { orgId: 'org_1', bin: 'TRASH', tagMode: 'any' };
const AUDIT_KEY = '2026-03-02T10:00:00.000Z#evt_0123456789abcdef0123456789abcdef';
const auditFilter: AuditFilter = { orgId: 'org_1', type: 'recording.', since: '2026-03-01T00:00:00.000Z' };
const DELIVERY = 'dlv_0000019c0a1b2c3d4e5f60718293a4b5';
const deliveries = { orgId: 'org_1', webhookId: 'wh_1' };
const KEY_POSITION = { created_at: '2026-02-01T12:00:00.000Z', key_id: 'key_0123456789abcdef' };

const NOT_ISSUED = { field: 'cursor', issue: 'format', message: 'is not a cursor this API issued' };
const OTHER_FILTERS = { field: 'cursor', issue: 'invalid_value', message: 'belongs to a list with other filters; start again without it' };

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return {
      status: (error as { statusCode?: number }).statusCode,
      code: (error as { code?: string }).code,
      details: (error as { details?: unknown }).details,
    };
  }
  throw new Error('expected a refusal');
};
const refused = (detail: object) => ({ status: 400, code: 'VALIDATION_ERROR', details: [detail] });
const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const fieldsOf = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('cursors issued before the lists shared one cursor', () => {
  it('still lead to the same position in each list', () => {
    expect(recordingListCursor.decode(ISSUED_BEFORE.recordings, recordingsFilter)).toEqual({
      after: '2026-01-10T09:00:00.000Z#rec_1',
      page: 3,
    });
    expect(recordingListCursor.decode(ISSUED_BEFORE.trash, trashFilter)).toEqual({ after: '2026-01-10T09:00:00.000Z#rec_1', page: 2 });
    expect(auditLogCursor.decode(ISSUED_BEFORE.audit, auditFilter)).toEqual({ after: AUDIT_KEY, page: 2 });
    expect(auditLogCursor.decode(ISSUED_BEFORE.wholeAudit, { orgId: 'org_1' })).toEqual({ after: AUDIT_KEY, page: 4 });
    expect(deliveryListCursor.decode(ISSUED_BEFORE.deliveries, deliveries)).toBe(DELIVERY);
    expect(deliveryListCursor.decode(ISSUED_BEFORE.failedDeliveries, { ...deliveries, status: 'failed' })).toBe(DELIVERY);
    expect(apiKeyListCursor.decode(ISSUED_BEFORE.apiKeys, { orgId: 'org_1' })).toEqual(KEY_POSITION);
    expect(apiKeyListCursor.decode(ISSUED_BEFORE.memberApiKeys, { orgId: 'org_1', userId: 'usr_1' })).toEqual(KEY_POSITION);
  });

  it("are refused with today's issue when used with other filters or in another organization", () => {
    expect(refusal(() => recordingListCursor.decode(ISSUED_BEFORE.recordings, { ...recordingsFilter, tagMode: 'all' }))).toEqual(
      refused(OTHER_FILTERS),
    );
    expect(refusal(() => recordingListCursor.decode(ISSUED_BEFORE.trash, { ...trashFilter, bin: 'LIVE' }))).toEqual(refused(OTHER_FILTERS));
    expect(refusal(() => auditLogCursor.decode(ISSUED_BEFORE.audit, { ...auditFilter, type: 'member.' }))).toEqual(refused(OTHER_FILTERS));
    expect(refusal(() => auditLogCursor.decode(ISSUED_BEFORE.wholeAudit, { orgId: 'org_2' }))).toEqual(refused(OTHER_FILTERS));
    expect(refusal(() => deliveryListCursor.decode(ISSUED_BEFORE.deliveries, { ...deliveries, status: 'failed' }))).toEqual(
      refused(OTHER_FILTERS),
    );
    expect(
      refusal(() => deliveryListCursor.decode(ISSUED_BEFORE.failedDeliveries, { ...deliveries, webhookId: 'wh_2', status: 'failed' })),
    ).toEqual(refused(OTHER_FILTERS));
    expect(refusal(() => apiKeyListCursor.decode(ISSUED_BEFORE.apiKeys, { orgId: 'org_1', userId: 'usr_1' }))).toEqual(
      refused(OTHER_FILTERS),
    );
    expect(refusal(() => apiKeyListCursor.decode(ISSUED_BEFORE.memberApiKeys, { orgId: 'org_1', userId: 'usr_2' }))).toEqual(
      refused(OTHER_FILTERS),
    );
    expect(refusal(() => apiKeyListCursor.decode(ISSUED_BEFORE.memberApiKeys, { orgId: 'org_2', userId: 'usr_1' }))).toEqual(
      refused(OTHER_FILTERS),
    );
  });

  it('are what the lists whose fingerprint was a hash still issue, so a version before this one reads them too', () => {
    expect(recordingListCursor.encode({ after: '2026-01-10T09:00:00.000Z#rec_1', page: 3 }, recordingsFilter)).toBe(
      ISSUED_BEFORE.recordings,
    );
    expect(recordingListCursor.encode({ after: '2026-01-10T09:00:00.000Z#rec_1', page: 2 }, trashFilter)).toBe(ISSUED_BEFORE.trash);
    expect(auditLogCursor.encode({ after: AUDIT_KEY, page: 2 }, auditFilter)).toBe(ISSUED_BEFORE.audit);
    expect(auditLogCursor.encode({ after: AUDIT_KEY, page: 4 }, { orgId: 'org_1' })).toBe(ISSUED_BEFORE.wholeAudit);
    expect(deliveryListCursor.encode(DELIVERY, deliveries)).toBe(ISSUED_BEFORE.deliveries);
    expect(deliveryListCursor.encode(DELIVERY, { ...deliveries, status: 'failed' })).toBe(ISSUED_BEFORE.failedDeliveries);
  });
});

describe("API keys' cursors", () => {
  it('bind the list by a hash now: they show neither the organization nor the member, and still round-trip', () => {
    const list = { orgId: 'org_1', userId: 'usr_1' };
    const cursor = apiKeyListCursor.encode(KEY_POSITION, list);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fieldsOf(cursor).f).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(Buffer.from(cursor, 'base64url').toString('utf8')).not.toMatch(/org_1|usr_1/);
    expect(apiKeyListCursor.decode(cursor, list)).toEqual(KEY_POSITION);
    expect(refusal(() => apiKeyListCursor.decode(cursor, { orgId: 'org_1' }))).toEqual(refused(OTHER_FILTERS));
  });
});

describe('every list', () => {
  const lists: [string, KeysetCursor<unknown, unknown>, unknown, string, unknown][] = [
    ['recordings', recordingListCursor, recordingsFilter, ISSUED_BEFORE.recordings, { ...recordingsFilter, orgId: 'org_2' }],
    ['the audit log', auditLogCursor, auditFilter, ISSUED_BEFORE.audit, { ...auditFilter, actorId: 'usr_1' }],
    ['deliveries', deliveryListCursor, deliveries, ISSUED_BEFORE.deliveries, { ...deliveries, status: 'pending' }],
    ['API keys', apiKeyListCursor, { orgId: 'org_1' }, ISSUED_BEFORE.apiKeys, { orgId: 'org_1', userId: 'usr_9' }],
  ];

  it.each(lists)(
    '%s: refuses a cursor of other filters and text it did not issue with the same wording',
    (_name, cursor, filter, issued, otherFilter) => {
      expect(refusal(() => cursor.decode(issued, otherFilter))).toEqual(refused(OTHER_FILTERS));
      const { f, ...position } = fieldsOf(issued);
      for (const text of [
        'not-a-cursor',
        '',
        forged(null),
        forged([1, 2]),
        forged('text'),
        forged(position),
        forged({ ...position, f: 7 }),
        forged({ f }),
      ]) {
        expect(refusal(() => cursor.decode(text, filter))).toEqual(refused(NOT_ISSUED));
      }
    },
  );

  it.each(lists)(
    '%s: refuses, as not issued, a position it never writes under the right fingerprint (a forged cursor is a 400, never a start key DynamoDB refuses)',
    (_name, cursor, filter, issued) => {
      const { f, ...position } = fieldsOf(issued);
      const emptied = Object.fromEntries(Object.entries(position).map(([name, value]) => [name, typeof value === 'string' ? '' : value]));
      const odd = Object.fromEntries(
        Object.entries(position).map(([name, value]) => [name, typeof value === 'string' ? `${value}\u0000"` : value]),
      );
      for (const fields of [emptied, odd])
        expect(refusal(() => cursor.decode(forged({ ...fields, f }), filter))).toEqual(refused(NOT_ISSUED));
    },
  );

  it('recordings refuse, as not issued for them, a position outside their date bounds under the right fingerprint', () => {
    const bounded: RecordingFilter = { ...recordingsFilter, to: '2026-01-31T23:59:59.999Z' };
    const { f } = fieldsOf(recordingListCursor.encode({ after: '2026-01-10T09:00:00.000Z#rec_1', page: 2 }, bounded));
    expect(recordingListCursor.decode(forged({ a: '2026-01-10T09:00:00.000Z#rec_1', p: 2, f }), bounded)).toEqual({
      after: '2026-01-10T09:00:00.000Z#rec_1',
      page: 2,
    });
    for (const after of ['2025-12-31T23:00:00.000Z#rec_1', '2026-02-01T00:00:00.000Z#rec_1']) {
      expect(refusal(() => recordingListCursor.decode(forged({ a: after, p: 2, f }), bounded))).toEqual(refused(NOT_ISSUED));
    }
  });

  it('refuses a cursor of another list, even one that holds the same filters', () => {
    const recordings = recordingListCursor.encode({ after: AUDIT_KEY, page: 2 }, { orgId: 'org_1', bin: 'LIVE', tagMode: 'any' });
    expect(refusal(() => auditLogCursor.decode(recordings, { orgId: 'org_1' }))).toEqual(refused(OTHER_FILTERS));
    const audit = auditLogCursor.encode({ after: AUDIT_KEY, page: 2 }, { orgId: 'org_1' });
    expect(refusal(() => recordingListCursor.decode(audit, { orgId: 'org_1', bin: 'LIVE', tagMode: 'any' }))).toEqual(
      refused(OTHER_FILTERS),
    );
    expect(refusal(() => deliveryListCursor.decode(audit, deliveries))).toEqual(refused(NOT_ISSUED));
  });

  it('the audit log refuses, as not issued for it, a position outside its time bounds under the right fingerprint', () => {
    const bounded: AuditFilter = { orgId: 'org_1', since: '2026-03-01T00:00:00.000Z', until: '2026-03-01T23:59:59.999Z' };
    const { f } = fieldsOf(
      auditLogCursor.encode({ after: '2026-03-01T10:00:00.000Z#evt_0123456789abcdef0123456789abcdef', page: 2 }, bounded),
    );
    expect(refusal(() => auditLogCursor.decode(forged({ a: AUDIT_KEY, p: 2, f }), bounded))).toEqual(refused(NOT_ISSUED));
    expect(
      refusal(() =>
        auditLogCursor.decode(forged({ a: '2026-02-28T10:00:00.000Z#evt_0123456789abcdef0123456789abcdef', p: 2, f }), bounded),
      ),
    ).toEqual(refused(NOT_ISSUED));
  });
});
