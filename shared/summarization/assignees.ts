/**
 * The member a name in a summary designates, when it designates exactly one: the model writes
 * the name it heard ("Maria"), the organization has members. Matching ignores case, accents and
 * extra spaces. A full display name that one member has wins; else a single first name that
 * exactly one member's display name starts with. Anything else (two Marias, a surname alone, a
 * name nobody has) is null: a task given to the wrong person is worse than an unassigned one.
 */
export interface AssignableMember {
  user_id: string;
  display_name: string;
  email: string;
}

export function matchAssignee(name: string | null, members: AssignableMember[]): string | null {
  if (!name) return null;
  const wanted = comparable(name);
  if (!wanted) return null;
  const byFullName = members.filter((member) => comparable(member.display_name) === wanted);
  if (byFullName.length === 1) return byFullName[0].user_id;
  if (byFullName.length > 1 || wanted.includes(' ')) return null;
  const byFirstName = members.filter((member) => comparable(member.display_name).split(' ')[0] === wanted);
  return byFirstName.length === 1 ? byFirstName[0].user_id : null;
}

/** Lower case, accents removed, punctuation and runs of spaces as one space. */
function comparable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ')
    .trim();
}
