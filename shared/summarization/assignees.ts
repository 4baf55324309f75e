/* Contract stub (plan-30, helper E's names): replaced by the engines branch. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

export function matchAssignee(name: string | null, members: { user_id: string; display_name: string; email: string }[]): string | null {
  if (!name || !fold(name)) return null;
  const wanted = fold(name);
  const full = members.filter((member) => fold(member.display_name) === wanted);
  if (full.length === 1) return full[0].user_id;
  if (full.length > 1) return null;
  const first = members.filter((member) => fold(member.display_name).split(/\s+/)[0] === wanted);
  return first.length === 1 ? first[0].user_id : null;
}
