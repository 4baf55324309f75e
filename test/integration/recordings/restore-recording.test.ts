import { callers, counts, getRec, isLive, nameOf, NOT_FOUND, restore, unknownAndOther, WRITERS } from '../../support/recordings';

/**
 * Restore recording end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local). The organizations and helpers of the recordings suites:
 * test/support/recordings.ts.
 */

describe('POST /api/v1/organization/{orgId}/recordings/{recordingId}/restore', () => {
  it('unknown and other-organization recordings are 404', async () => {
    const { org, other } = await unknownAndOther();
    for (const recordingId of [`rec_unknown_${org.id}`, other.recId('new')]) {
      expect(await restore(org, recordingId)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    expect((await getRec(other, other.recId('new'))).status).toBe(200);
    expect((await counts(other)).live).toBe(3);
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Restore with %s: live again', async (caller, tokenOf) => {
      const org = await callers();
      const res = await restore(org, org.recId(`res_${nameOf(caller)}`), await tokenOf(org));
      expect(res.status).toBe(200);
      expect(await isLive(org, `res_${nameOf(caller)}`)).toBe(true);
    });
  });
});
