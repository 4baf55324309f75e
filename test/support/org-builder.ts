import type { MemberStatus, Role, Scope } from '../../shared/core/access';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { localDeployment, seed, unique } from './api';

/**
 * One builder for the test organizations of the integration suites: people of given roles
 * and standings, API keys of given scopes, tags, all under a fresh random suffix so that
 * every suite (or describe block) acts on an organization of its own.
 */

/** A person of a test organization, under a name the suite chooses (`owner`, `target`...). */
export interface PersonSpec {
  role: Role;
  /** The membership's standing; active unless told. */
  status?: MemberStatus;
  /** Makes the defaults: display name `<first> <name>`, email `<first>.<name>@example.com`. */
  first?: string;
  displayName?: string;
  /** The email before the organization's suffix is added (`mo.member@example.com` -> `mo.member.<suffix>@example.com`). */
  email?: string;
  timezone?: string;
  memberSince?: string;
}

/** An API key: an org key, or the personal key of one of the organization's people. */
export interface KeySpec<P extends string> {
  scopes: Scope[];
  user?: P;
}

/** A tag, owned by one of the people (the `member` unless told). */
export interface TagSpec<P extends string> {
  name: string;
  color: string;
  owner?: P;
}

/** The four active members most suites need: olga owner, adam admin, mo member, vic viewer. */
export const STAFF = {
  owner: { role: 'owner', first: 'olga' },
  admin: { role: 'admin', first: 'adam' },
  member: { role: 'member', first: 'mo' },
  viewer: { role: 'viewer', first: 'vic' },
} as const satisfies Record<string, PersonSpec>;
export type StaffName = keyof typeof STAFF;

export interface OrgSpec<P extends string, K extends string, T extends string> {
  /** Part of the organization id (`org_<label>_<suffix>`), so a failing test names its suite. */
  label?: string;
  /** The organization's display name; `<label> <suffix>` by default. */
  name?: string;
  /** STAFF by default. */
  people?: Record<P, PersonSpec>;
  // NoInfer: the people are named by `people` (or STAFF), never by a key's or a tag's owner.
  keys?: Record<K, KeySpec<NoInfer<P>>>;
  tags?: Record<T, TagSpec<NoInfer<P>>>;
  /** This many more active members (role member), `bulk000`, `bulk001`... in email order. */
  extraMembers?: number;
}

export interface Person {
  id: string;
  email: string;
  display_name: string;
  timezone?: string;
}

export interface TestOrg<P extends string = StaffName, K extends string = string, T extends string = string> {
  /** The random suffix every id of this organization carries. */
  id: string;
  org: string;
  orgName: string;
  people: Record<P, Person>;
  /** The extra members, in email order. */
  extra: Person[];
  /** The plaintext keys, as a client sends them. */
  keys: Record<K, string>;
  tags: Record<T, { id: string; org_id: string; user_id: string; name: string; color: string }>;
  /** An id unique to this organization for a recording the suite names. */
  recId: (name: string) => string;
  /** A fresh address for this organization's tests (lower-case, as the service stores it). */
  address: (local: string) => string;
  fixture: FixtureInput & Required<Pick<FixtureInput, 'orgs' | 'users' | 'memberships' | 'api_keys' | 'tags'>>;
}

const withSuffix = (email: string, suffix: string) => email.replace('@', `.${suffix}@`);

export function buildOrg<P extends string = StaffName, K extends string = never, T extends string = never>(
  spec: OrgSpec<P, K, T> = {},
): TestOrg<P, K, T> {
  const id = unique();
  const org = spec.label ? `org_${spec.label}_${id}` : `org_${id}`;
  const orgName = spec.name ?? `${spec.label ?? 'Org'} ${id}`;
  const specs = (spec.people ?? STAFF) as Record<P, PersonSpec>;
  const names = Object.keys(specs) as P[];

  const people = {} as Record<P, Person>;
  for (const name of names) {
    const { first = name, displayName, email, timezone } = specs[name];
    people[name] = {
      id: `usr_${name.toLowerCase()}_${id}`,
      email: withSuffix(email ?? `${first}.${name}@example.com`, id),
      display_name: displayName ?? `${first} ${name}`,
      ...(timezone ? { timezone } : {}),
    };
  }
  const extra: Person[] = Array.from({ length: spec.extraMembers ?? 0 }, (_, i) => ({
    id: `usr_m${i}_${id}`,
    email: withSuffix(`bulk${String(i).padStart(3, '0')}@example.com`, id),
    display_name: `Bulk Person ${i}`,
  }));

  // Letters keep every key of one organization distinct at the same length.
  const keySpecs = Object.entries(spec.keys ?? {}) as [K, KeySpec<P>][];
  const keys = {} as Record<K, string>;
  keySpecs.forEach(([name, key], i) => {
    keys[name] = `pk_${key.user ? 'user' : 'org'}_${id}${String.fromCharCode(97 + i).repeat(24)}`;
  });

  const tags = {} as TestOrg<P, K, T>['tags'];
  for (const [name, tag] of Object.entries(spec.tags ?? {}) as [T, TagSpec<P>][]) {
    const owner = people[tag.owner ?? ('member' as P)];
    if (!owner) throw new Error(`tag ${name}: no person named ${tag.owner ?? 'member'}`);
    tags[name] = { id: `tag_${name.toLowerCase()}_${id}`, org_id: org, user_id: owner.id, name: tag.name, color: tag.color };
  }

  const fixture: TestOrg<P, K, T>['fixture'] = {
    orgs: [{ id: org, name: orgName }],
    users: [...names.map((name) => people[name]), ...extra],
    memberships: [
      ...names.map((name) => ({
        org_id: org,
        user_id: people[name].id,
        role: specs[name].role,
        status: specs[name].status ?? 'active',
        ...(specs[name].memberSince ? { member_since: specs[name].memberSince } : {}),
      })),
      ...extra.map((user) => ({ org_id: org, user_id: user.id, role: 'member' as const })),
    ],
    api_keys: keySpecs.map(([name, key]) => ({
      org_id: org,
      key: keys[name],
      scopes: key.scopes,
      ...(key.user ? { user_id: people[key.user].id } : {}),
    })),
    tags: Object.values(tags),
  };

  return {
    id,
    org,
    orgName,
    people,
    extra,
    keys,
    tags,
    recId: (name) => `rec_${name}_${id}`,
    address: (local) => `${local}.${id}@example.com`.toLowerCase(),
    fixture,
  };
}

/** Loads an organization (and anything else of the same fixture) into the shared deployment's table. */
/**
 * Member settings with `auto_transcription` off for every person of the organization: the
 * suites about uploads and recordings (not transcripts) keep their uploads `uploaded`, as they
 * were before uploads were transcribed on their own (test/integration/transcription/ covers that).
 */
export function noAutoTranscription(org: TestOrg<string, string, string>): Pick<FixtureInput, 'settings'> {
  return {
    settings: Object.values(org.people).map((person) => ({ org_id: org.org, user_id: person.id, settings: { auto_transcription: false } })),
  };
}

export async function seedOrg<O extends TestOrg<string, string, string>>(org: O, extra: FixtureInput = {}): Promise<O> {
  await seed(localDeployment().db, {
    ...org.fixture,
    ...extra,
    // Extra memberships and keys join the organization's own rather than replace them.
    memberships: [...org.fixture.memberships, ...(extra.memberships ?? [])],
    api_keys: [...org.fixture.api_keys, ...(extra.api_keys ?? [])],
    users: [...org.fixture.users, ...(extra.users ?? [])],
    tags: [...org.fixture.tags, ...(extra.tags ?? [])],
  });
  return org;
}
