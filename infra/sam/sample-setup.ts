import { SCOPES, type Scope } from '../../shared/core/access';
import { principalIdOf, principalToContext, type AuthorizerContext, type Principal } from '../../shared/auth/principal';
import type { CredentialName, SampleIds } from '../../shared/routes/sample-request';
import { DEMO_ERASURE_ID, DEMO_EXPORT_ID, DEMO_KEY_IDS, DEMO_ORG_ID, DEMO_USERS } from '../local/demo';
import { DEMO_DELIVERY_ID, DEMO_WEBHOOKS } from '../local/demo-webhooks';

/**
 * The data and credentials every route's sample request (its route module's `sample`) runs with:
 * the ids of the items they act on and a bearer credential of each kind, with the context the
 * authorizer gives it. The committed events (infra/sam/function-events.ts) use `npm start`'s demo
 * with placeholder secrets; the tests that run every route (the access matrix, the artefact
 * tests) seed data of their own for a set of ids (test/support/sample-data.ts).
 */

/** A bearer credential and what the authorizer answers for it. */
export interface SampleCredential {
  /** The Authorization header value. */
  authorization: string;
  principalId: string;
  context: AuthorizerContext;
}

export interface SampleSetup {
  stage: string;
  region: string;
  bucketName: string;
  ids: SampleIds;
  credentials: Record<CredentialName, SampleCredential>;
}

/**
 * Placeholders for the secrets of the committed events, which differ in every data directory:
 * replace them with your own (the bearer values only matter to the authorizer, which
 * `sam local invoke` of an HTTP function skips; Accept invite needs the emailed token).
 */
export const PLACEHOLDER_ORG_KEY = 'pk_org_sample_replace_with_your_org_key';
export const PLACEHOLDER_PERSONAL_KEY = 'pk_user_sample_replace_with_your_personal_key';
export const PLACEHOLDER_ID_TOKEN = 'REPLACE_WITH_AN_ID_TOKEN';
export const PLACEHOLDER_OWNER_ID_TOKEN = 'REPLACE_WITH_AN_OWNER_ID_TOKEN';
export const PLACEHOLDER_INVITE_TOKEN = 'REPLACE_WITH_THE_TOKEN_OF_THE_INVITATION_EMAIL';

/** Ids of `npm start`'s demo (fixtures/demo.json and infra/local/demo.ts): every item the sample requests act on is there. */
export const SAMPLE_IDS: SampleIds = {
  orgId: DEMO_ORG_ID,
  ownerId: DEMO_USERS.owner.id,
  ownerEmail: DEMO_USERS.owner.email,
  apiKeyId: DEMO_KEY_IDS.crmSync,
  memberId: DEMO_USERS.member.id,
  exportId: DEMO_EXPORT_ID,
  managedMemberId: DEMO_USERS.viewer.id,
  managedMemberEmail: DEMO_USERS.viewer.email,
  erasureId: DEMO_ERASURE_ID,
  recordingId: 'rec_demo_standup',
  editRecordingId: 'rec_demo_sales_call',
  trashedRecordingId: 'rec_demo_old_test',
  uploadRecordingId: 'rec_demo_upload',
  mediaRecordingId: 'rec_demo_voice_memo',
  uploadFilename: 'customer-interview.m4a',
  uploadBytes: 48_213_504,
  tagId: 'tag_demo_sales',
  templateId: 'tpl_demo_sales_call',
  resendInviteId: 'inv_demo_resend',
  revokeInviteId: 'inv_demo_revoke',
  inviteToken: PLACEHOLDER_INVITE_TOKEN,
  inviteeEmail: 'ines.invitee@demo.example',
  newInviteEmail: 'nina.new@demo.example',
  webhookId: DEMO_WEBHOOKS.crm.id,
  deliveryId: DEMO_DELIVERY_ID,
  deleteWebhookId: DEMO_WEBHOOKS.old.id,
  // Where npm start lets an endpoint point (loopback; nothing listens on port 9): a public https URL in AWS.
  webhookUrl: 'http://127.0.0.1:9/voice-org',
};

/** The scopes of the sample personal key. */
export const PERSONAL_KEY_SCOPES: Scope[] = ['recordings:read', 'recordings:write'];

/** The authorizer's answer for a principal, as functions/authorizer.ts builds it. */
export function credentialFor(authorization: string, principal: Principal): SampleCredential {
  return {
    authorization,
    principalId: principalIdOf(principal),
    context: principalToContext(principal),
  };
}

/**
 * The committed events' setup: placeholder credentials, each with the context the authorizer
 * gives the demo's own credential (the demo's keys have stable ids; an ID token's issuer and
 * subject are Cognito's in AWS).
 */
export function placeholderSetup(ids: SampleIds = SAMPLE_IDS): SampleSetup {
  return {
    stage: 'prod',
    region: 'us-east-1',
    bucketName: 'voiceorgapi-prod-recordingsbucket-example',
    ids,
    credentials: {
      orgKey: credentialFor(`Bearer ${PLACEHOLDER_ORG_KEY}`, {
        kind: 'org_key',
        orgId: ids.orgId,
        keyId: DEMO_KEY_IDS.org,
        scopes: [...SCOPES],
      }),
      personalKey: credentialFor(`Bearer ${PLACEHOLDER_PERSONAL_KEY}`, {
        kind: 'user_key',
        orgId: ids.orgId,
        userId: ids.memberId,
        keyId: DEMO_KEY_IDS.personal,
        scopes: PERSONAL_KEY_SCOPES,
      }),
      idToken: credentialFor(`Bearer ${PLACEHOLDER_ID_TOKEN}`, {
        kind: 'id_token',
        email: ids.inviteeEmail,
        emailVerified: true,
        issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE',
        subject: '8f0b6a52-5c1e-4f7a-9d2e-0c3b7e6d1a90',
        name: 'Ines Invitee',
      }),
      ownerToken: credentialFor(`Bearer ${PLACEHOLDER_OWNER_ID_TOKEN}`, {
        kind: 'id_token',
        userId: ids.ownerId,
        email: ids.ownerEmail,
        emailVerified: true,
        issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE',
        subject: '3c9d2e7a-1b4f-4e8a-a6c5-7d0f2b9e4c11',
        name: 'Olivia Owner',
      }),
    },
  };
}
