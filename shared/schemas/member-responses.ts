import * as v from 'valibot';
import { described, pagedEnvelope } from './envelopes';
import { Member } from './members';

/** The members area's responses (List users, Update member, Remove member), for the OpenAPI document and the contract check. */
export const MemberListResponse = pagedEnvelope(
  described(v.array(v.strictObject(Member.entries)), 'The active members on this page, by email ascending.'),
);

/** `{success: true, data: Member}`: the answer of Update member and Remove member (the member as the change left them). */
export const MemberResponse = v.strictObject({
  success: v.pipe(v.literal(true), v.description('Always true on success.')),
  data: v.pipe(v.strictObject(Member.entries), v.description('The member as the change left them.')),
});
