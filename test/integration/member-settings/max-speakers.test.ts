import { failure, once } from '../../support/api';
import { client, newMember, patchOk, routesOf, seededOrg } from '../../support/member-settings';

/**
 * The settings key `max_speakers` (docs/transcript-controls.md, "Speakers"): 2 to 30 speakers a
 * transcription of the member's recordings tells apart, 10 until set, on both routes; anything
 * else is 400 INVALID_SETTING and leaves the setting as it was.
 */
const organization = once(seededOrg);

describe.each(routesOf('PATCH'))('%s: max_speakers', (_route, route) => {
  it('is 10 until set; 2, 5 and 30 are kept and shown', async () => {
    const org = await organization();
    const api = client(route, org);
    const member = await newMember(org);
    expect((await api.get(member.id)).body.data.settings.max_speakers).toBe(10);
    for (const value of [5, 2, 30]) {
      await patchOk(api, member.id, { settings: { max_speakers: value } });
      expect((await api.get(member.id)).body.data.settings.max_speakers).toBe(value);
    }
    // Another key of the bundle leaves it as it is.
    await patchOk(api, member.id, { settings: { selected_theme: 'dark' } });
    expect((await api.get(member.id)).body.data.settings).toMatchObject({ max_speakers: 30, selected_theme: 'dark' });
  });

  // A settings problem is 400 INVALID_SETTING, as for every key of the section (docs/decisions.md), with the field in its message.
  it('refuses 1, 31, 2.5, "5", null, 0 and -3 with 400 INVALID_SETTING naming the key, and keeps the setting', async () => {
    const org = await organization();
    const api = client(route, org);
    const member = await newMember(org);
    await patchOk(api, member.id, { settings: { max_speakers: 4 } });
    for (const value of [1, 31, 2.5, '5', null, 0, -3]) {
      const res = await api.patch(member.id, { settings: { max_speakers: value } });
      expect({ value, status: res.status, body: res.body }).toEqual({
        value,
        status: 400,
        body: failure('INVALID_SETTING', expect.stringContaining('settings.max_speakers')),
      });
    }
    expect((await api.get(member.id)).body.data.settings.max_speakers).toBe(4);
  });
});
