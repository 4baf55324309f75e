import * as v from 'valibot';

/* The member export routes' requests (docs/governance.md, "Export"). */

/** Body of Create member export. */
export const CreateMemberExportBody = v.strictObject({
  include_media: v.pipe(
    v.optional(v.boolean('must be true or false'), false),
    v.description("Whether the ZIP also holds the audio file of each of the member's recordings (default false: JSON only, far smaller)."),
  ),
});
export type CreateMemberExportBody = v.InferOutput<typeof CreateMemberExportBody>;
