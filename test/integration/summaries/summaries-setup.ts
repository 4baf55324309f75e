import { call, localDeployment, once } from '../../support/api';
import { buildOrg, noAutoTranscription, seedOrg } from '../../support/org-builder';
import { fixtureRecordingOf } from '../../support/summaries';

/** The organization the summary routes' suites share: staff, keys of each scope, recordings of the member and the admin. */
export const { runtime } = localDeployment();

export const summariesOrg = once(async () => {
  const org = buildOrg({
    label: 'sum',
    keys: {
      read: { scopes: ['recordings:read'] },
      write: { scopes: ['recordings:read', 'recordings:write'] },
      member: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
      memberRead: { scopes: ['recordings:read'], user: 'member' },
      audit: { scopes: ['audit:read'] },
      templates: { scopes: ['templates:read', 'templates:write'] },
    },
  });
  const recording = (name: string, by: 'member' | 'admin', options?: Parameters<typeof fixtureRecordingOf>[3]) =>
    fixtureRecordingOf(org.org, org.recId(name), org.people[by].id, options);
  await seedOrg(org, {
    ...noAutoTranscription(org),
    templates: [
      { id: `tpl_sum_${org.id}`, org_id: org.org, name: 'Sales call', description: '', sections: [{ title: 'Customer', prompt: 'Who.' }] },
    ],
    recordings: [
      recording('mine', 'member'),
      recording('admins', 'admin'),
      recording('bare', 'member', { transcript: false, summary: false }),
      recording('create', 'member', { summary: false }),
      recording('patch', 'member'),
      recording('adminpatch', 'admin'),
      recording('delete', 'member'),
    ],
  });
  return { ...org, templateId: `tpl_sum_${org.id}` };
});

export const orgPath = (orgId: string, recordingId: string, rest = '') =>
  `/api/v1/organization/${orgId}/recordings/${recordingId}/summaries${rest}`;
export const publicPath = (recordingId: string) => `/api/v1/public/recordings/${recordingId}/summaries`;
export const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  token: string,
  body?: unknown,
  headers?: Record<string, string>,
) => call(runtime.apiUrl, method, path, { token, body, headers });
