/**
 * What a route's sample request is: the request its route module gives for the sample events
 * of `sam local invoke` (infra/sam/function-events.ts, events/*.json) and for the generated
 * tests that run every route (the access matrix, the artefact tests). Requests run in manifest
 * order on one set of data (infra/sam/sample-setup.ts): changes come after reads of the same item.
 */

/** The data the sample requests act on. The committed events use the ids of `npm start`'s demo (infra/local/demo.ts). */
export interface SampleIds {
  orgId: string;
  /** The organization's owner, signed in (ownerToken): manages API keys. */
  ownerId: string;
  ownerEmail: string;
  /** An organization API key that is read, rotated, then revoked. */
  apiKeyId: string;
  /** The member whose settings are read and changed, and whose personal key creates an upload. */
  memberId: string;
  /** An export of the member's data (docs/governance.md), read by Get member export. */
  exportId: string;
  /** A viewer who is made a member (Update member), then removed (Remove member), then erased (Erase member). */
  managedMemberId: string;
  /** Their email: what Erase member's `confirm` must be. */
  managedMemberEmail: string;
  /** A completed erasure of the managed member (an earlier membership of theirs), read by Get member erasure. */
  erasureId: string;
  /** A live recording with a transcript, a summary and action items. */
  recordingId: string;
  /** A recording that is changed, then moved to the trash. */
  editRecordingId: string;
  /** A recording in the trash, restored. */
  trashedRecordingId: string;
  /** A recording waiting for its file, completed by the S3 event. */
  uploadRecordingId: string;
  /** The member's recording whose file was uploaded, played (Get recording media, both hosts). */
  mediaRecordingId: string;
  uploadFilename: string;
  uploadBytes: number;
  tagId: string;
  /** A template that is read, changed, then deleted. */
  templateId: string;
  /** Pending invitations: one is sent again, one revoked. */
  resendInviteId: string;
  revokeInviteId: string;
  /** The token of a pending invitation to inviteeEmail (what its email link carries). */
  inviteToken: string;
  inviteeEmail: string;
  /** The address Send invite invites. */
  newInviteEmail: string;
  /** A webhook endpoint that is read, changed, rotated and tested; its failed delivery is retried. */
  webhookId: string;
  deliveryId: string;
  /** A webhook endpoint that is deleted. */
  deleteWebhookId: string;
  /** The URL Create webhook subscribes (loopback in the local tests, where nothing else resolves). */
  webhookUrl: string;
}

/** An org key with every scope, the member's personal key, the invitee's ID token (accepting), the owner's ID token (API keys). */
export type CredentialName = 'orgKey' | 'personalKey' | 'idToken' | 'ownerToken';

/** What one route's sample request sends, and the status its handler answers on the sample data. */
export interface SampleRequest {
  credential: CredentialName | null;
  /** Path parameters other than orgId (which comes from the ids). */
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  status: number;
}

/** A route's sample request, on a set of sample ids. */
export type SampleRequestOf = (ids: SampleIds) => SampleRequest;
