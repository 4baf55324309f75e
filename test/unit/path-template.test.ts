import { compilePathTemplate, createPathMatcher } from '../../shared/http/path-template';
import { listEndpoints } from '../../shared/routes/manifest';

describe('compilePathTemplate', () => {
  const users = compilePathTemplate('/api/v1/organization/{orgId}/users');
  const settings = compilePathTemplate('/api/v1/organization/{orgId}/users/{userId}/settings');

  it('returns the path parameters of a matching path, by name', () => {
    expect(users.parameterNames).toEqual(['orgId']);
    expect(users.match('/api/v1/organization/org_1/users')).toEqual({ orgId: 'org_1' });
    expect(settings.match('/api/v1/organization/org_1/users/usr_2/settings')).toEqual({ orgId: 'org_1', userId: 'usr_2' });
    expect(compilePathTemplate('/health').match('/health')).toEqual({});
  });

  it.each([
    ['an empty segment', '/api/v1/organization//users'],
    ['two segments', '/api/v1/organization/org_1/x/users'],
    ['a trailing slash', '/api/v1/organization/org_1/users/'],
    ['a missing segment', '/api/v1/organization/users'],
    ['another literal', '/api/v1/organization/org_1/members'],
    ['another case', '/api/v1/Organization/org_1/users'],
    ['a relative path', 'api/v1/organization/org_1/users'],
  ])('lets a parameter match exactly one non-empty segment and literals match exactly: not %s', (_case, path) => {
    expect(users.match(path)).toBeUndefined();
  });

  it('gives parameter values as sent, still percent-encoded', () => {
    expect(users.match('/api/v1/organization/org%2F1%20x/users')).toEqual({ orgId: 'org%2F1%20x' });
  });

  it('matches the root template to / only', () => {
    const root = compilePathTemplate('/');
    expect(root.match('/')).toEqual({});
    expect(root.match('/health')).toBeUndefined();
  });

  it('expands values into their segments, percent-encoded, and refuses a missing one', () => {
    expect(settings.expand({ orgId: 'org_1', userId: 'usr/2 x' })).toBe('/api/v1/organization/org_1/users/usr%2F2%20x/settings');
    expect(() => settings.expand({ orgId: 'org_1' })).toThrow(/userId/);
    expect(() => settings.expand({ orgId: 'org_1', userId: '' })).toThrow(/userId/);
  });

  it.each(['health', '/health/', '/a//b', '/a/{b', '/a/x{b}', '/a/{proxy+}', '/a/{id}/{id}'])('refuses the template %j', (template) => {
    expect(() => compilePathTemplate(template)).toThrow();
  });

  it('round-trips every endpoint of the route manifest: its expanded path matches it with the same values', () => {
    for (const { path } of listEndpoints()) {
      const template = compilePathTemplate(path);
      const values = Object.fromEntries(template.parameterNames.map((name, i) => [name, `${name}_${i}`]));
      expect({ path, params: template.match(template.expand(values)) }).toEqual({ path, params: values });
    }
  });
});

describe('createPathMatcher', () => {
  it('prefers the literal segment over a parameter, whatever the order of the templates', () => {
    const templates = ['/api/v1/public/recordings/{recordingId}', '/api/v1/public/recordings/upload-url'];
    for (const match of [createPathMatcher(templates), createPathMatcher([...templates].reverse())]) {
      expect(match('/api/v1/public/recordings/upload-url')).toEqual({ template: '/api/v1/public/recordings/upload-url', params: {} });
      expect(match('/api/v1/public/recordings/rec_1')).toEqual({
        template: '/api/v1/public/recordings/{recordingId}',
        params: { recordingId: 'rec_1' },
      });
    }
  });

  it('decides by the first segment where a literal and a parameter differ, left to right', () => {
    const match = createPathMatcher(['/a/{x}/c', '/a/b/{y}', '/{z}/b/c']);
    expect(match('/a/b/c')?.template).toBe('/a/b/{y}');
    expect(match('/a/q/c')).toEqual({ template: '/a/{x}/c', params: { x: 'q' } });
    expect(match('/q/b/c')).toEqual({ template: '/{z}/b/c', params: { z: 'q' } });
  });

  it('falls back to a parameter when the literal template does not match the rest of the path', () => {
    const match = createPathMatcher(['/api/v1/organization/invites/accept', '/api/v1/organization/{orgId}/invites']);
    expect(match('/api/v1/organization/invites/invites')).toEqual({
      template: '/api/v1/organization/{orgId}/invites',
      params: { orgId: 'invites' },
    });
    expect(match('/api/v1/organization/invites/accept')?.template).toBe('/api/v1/organization/invites/accept');
  });

  it('matches no template for an unknown path', () => {
    expect(createPathMatcher(['/health'])('/healthz')).toBeUndefined();
  });
});
