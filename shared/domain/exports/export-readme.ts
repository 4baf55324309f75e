import type { MemberExport } from '../../storage/member-export-items';

/**
 * The README.md at the root of a member's export: what each file holds, for the person who
 * opens it. docs/governance.md ("Export") documents the same files for integrators.
 */
export function exportReadme(record: MemberExport): string {
  return `# Your data in Voice Org

This archive holds the data Voice Org keeps about member \`${record.user_id}\` in organization
\`${record.org_id}\`, as the API shows it. It was asked for on ${record.created_at} (export
\`${record.id}\`)${record.include_media ? ', with the audio files' : ''}.

| file | what it holds |
|---|---|
| \`manifest.json\` | the export's ids, when it was written, and how many of each thing it holds |
| \`user.json\` | your user (email, display name, time zone) and your membership of this organization |
| \`settings.json\` | your settings, notifications, tags and profile (decrypted), as Get member settings shows them |
| \`preferences.json\` | every preference learnt from your summaries (Get member settings pages them) |
| \`recordings/<id>/recording.json\` | each recording you recorded here (in the trash too): details, transcript, featured summary, action items, latest translation |
| \`recordings/<id>/summaries.json\` | every summary of the recording, with its action items |
| \`recordings/<id>/translations/<language>.json\` | each translation: the translated transcript and summary |
| \`recordings/<id>/media/<file>\` | the recorded audio file, when the export includes media |
| \`action-items-assigned.json\` | action items assigned to you in recordings others made |
| \`audit-log.json\` | the audit log's entries of what you did in this organization |
| \`api-keys.json\` | your personal API keys: names, scopes, dates (never a secret) |

The JSON files are UTF-8, times are ISO 8601 in UTC. The archive is removed 7 days after it
was written.
`;
}
