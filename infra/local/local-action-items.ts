/**
 * Action items by rules, for the local summary engine (local-summarizer.ts): the sentences that
 * give someone a task ("Maria will send the contract by Friday", "Tom to review the budget",
 * "I'll book the room", "Action item: …"), the task as an imperative ("Send the contract"), who
 * takes it, and a due date from a deadline said relative to the recording's day.
 */
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Words that open a clause but name nobody: "it will", "the team will", "this should". */
export const NOT_A_NAME = new Set(
  'i we you he she it they this that these those there here who what which someone somebody everyone everybody nobody anyone anybody one the a an all both each our my your their his her its something nothing everything and so then but okay ok well yes no maybe also now today tomorrow'.split(
    ' ',
  ),
);

/** Verbs that pass a task to the subject: "Maria will …", "Tom needs to …". */
const MODAL = String.raw`(?:will|'ll|shall|is going to|is gonna|are going to|has to|have to|needs to|need to|should|must|agreed to|promised to|offered to|can)`;
/** Fillers spoken before the clause. */
const FILLER = /^(?:(?:okay|ok|so|and|then|alright|all right|right|well|also|great|good|yes|yeah|sure)[,\s]+)+/i;

/**
 * A sentence's clauses, where tasks start: after a comma, "so", "then", "okay", "but"…, and before
 * "and <name> will …". Unpunctuated speech ("we agreed on the budget so maria will send the
 * contract by friday") is one long sentence: its tasks are in its clauses.
 */
export function clausesOf(sentence: string): string[] {
  return sentence
    .split(
      /\s*[,;]\s+|\s+(?:and then|so|then|okay|ok|alright|but|also|because)\s+|\s+and\s+(?=[\p{L}'-]+ (?:will|'ll|to|needs to|has to|should|must|is going to)\s)/iu,
    )
    .map((clause) => clause.trim())
    .filter(Boolean);
}

export interface RuleActionItem {
  text: string;
  assignee: string | null;
  due_date: string | null;
}

/** Is this word a verb? (the caller's part-of-speech tagger; tests pass a list) */
export type VerbTest = (word: string) => boolean;

/**
 * The action item a sentence states, or undefined. `speaker` is the line's speaker label: a
 * generic one (spk_0, Speaker 1) names nobody. `isName` says whether a word can be a person's
 * name (the caller's tagger: a proper noun, or a noun in lower-case speech).
 */
export function actionItemOf(
  sentence: string,
  context: { speaker: string; day: string; isVerb: VerbTest; isName: (word: string) => boolean },
): RuleActionItem | undefined {
  const clause = sentence
    .trim()
    .replace(FILLER, '')
    .replace(/[.!;]+$/, '')
    .trim();
  let assignee: string | null = null;
  let task: string | undefined;

  const explicit = /^action items?\s*[:,-]?\s+(.+)$/i.exec(clause);
  const named = new RegExp(String.raw`^([\p{L}'-]+(?: [\p{L}'-]+)?),? ${MODAL} (.+)$`, 'iu').exec(clause);
  const to = /^([\p{L}'-]+(?: [\p{L}'-]+)?) to (.+)$/iu.exec(clause);
  const self = /^(?:I'm going to|I am going to|I'm gonna|I'll|I will|I need to|I have to|I can|I should|I must|let me)\s+(.+)$/i.exec(
    clause,
  );
  const together = /^(?:we need to|we have to|we must|we should|let's|let us) (.+)$/i.exec(clause);

  if (explicit) task = explicit[1];
  else if (together) task = together[1];
  else if (self) {
    task = self[1];
    assignee = isGenericSpeaker(context.speaker) ? null : context.speaker;
  } else {
    const match = named ?? to;
    if (!match) return undefined;
    const words = match[1].split(' ');
    if (words.some((word) => NOT_A_NAME.has(word.toLowerCase()) || !context.isName(word))) return undefined;
    task = match[2];
    assignee = words.map((word) => word[0].toUpperCase() + word.slice(1)).join(' ');
  }
  if (!task) return undefined;
  const { text, due_date } = withoutDeadline(task.replace(/^(?:also|then|please|just)\s+/i, ''), context.day);
  const firstWord = text.split(' ')[0] ?? '';
  if (!explicit && !context.isVerb(firstWord)) return undefined;
  if (text.split(' ').length < 2) return undefined;
  return { text: text[0].toUpperCase() + text.slice(1), assignee, due_date };
}

const isGenericSpeaker = (speaker: string) => !speaker.trim() || /^(spk_\d+|speaker ?\d*|unknown)$/i.test(speaker.trim());

/** The task up to its deadline, and the deadline as YYYY-MM-DD (`day`: the recording's, YYYY-MM-DD). */
export function withoutDeadline(task: string, day: string): { text: string; due_date: string | null } {
  const deadline = new RegExp(String.raw`\s*,?\s*\b(?:by|before|on|until|till|no later than|due)\s+(?:the\s+)?(${DEADLINE})\b`, 'i');
  // "…tomorrow", "…next week" at the end are deadlines without a preposition.
  const match = deadline.exec(task) ?? /\s+(today|tonight|tomorrow|(?:this|next) week)$/i.exec(task);
  // What follows the deadline is another thought ("… by friday and then the budget …"); a task is a dozen words at most.
  const words = (match ? task.slice(0, match.index) : task)
    .replace(/\s+/g, ' ')
    .replace(/[\s,.;:]+$/, '')
    .trim()
    .split(' ');
  const text = words.length > 12 ? `${words.slice(0, 12).join(' ')}…` : words.join(' ');
  return { text, due_date: match ? dateOf(match[1].toLowerCase(), day) : null };
}

const DEADLINE = [
  String.raw`end of (?:the )?(?:day|week|month)`,
  'eod',
  'today',
  'tonight',
  'tomorrow',
  String.raw`(?:this|next) week`,
  String.raw`(?:this |next )?(?:${WEEKDAYS.join('|')})`,
  String.raw`(?:${MONTHS.join('|')}) \d{1,2}(?:st|nd|rd|th)?`,
  String.raw`\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:${MONTHS.join('|')})`,
  String.raw`\d{4}-\d{2}-\d{2}`,
].join('|');

function dateOf(phrase: string, day: string): string | null {
  const base = new Date(`${day}T00:00:00Z`);
  const plus = (days: number) => new Date(base.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  const weekday = base.getUTCDay();
  if (/^(today|tonight|eod|end of (the )?day)$/.test(phrase)) return plus(0);
  if (phrase === 'tomorrow') return plus(1);
  // Weeks run Monday to Sunday; "by the end of the week" is its Friday, "by next week" the coming Monday.
  if (/^(end of (the )?week|this week)$/.test(phrase)) return plus(Math.max(0, 5 - weekday));
  if (phrase === 'next week') return plus((8 - weekday) % 7 || 7);
  if (/^end of (the )?month$/.test(phrase))
    return new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
  const named = /^(this |next )?(\w+day)$/.exec(phrase);
  if (named && WEEKDAYS.includes(named[2])) {
    // The first such day after the recording's; "next Friday" said early in a week is the one of the week after.
    let ahead = (WEEKDAYS.indexOf(named[2]) - weekday + 7) % 7 || 7;
    if (named[1] === 'next ' && ahead <= (7 - weekday) % 7) ahead += 7;
    return plus(ahead);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(phrase)) return Number.isNaN(Date.parse(`${phrase}T00:00:00Z`)) ? null : phrase;
  const monthDay = new RegExp(
    String.raw`^(?:(${MONTHS.join('|')}) (\d{1,2})|(\d{1,2})(?:st|nd|rd|th)? (?:of )?(${MONTHS.join('|')}))`,
  ).exec(phrase);
  if (monthDay) {
    const month = MONTHS.indexOf(monthDay[1] ?? monthDay[4]);
    const date = Number(monthDay[2] ?? monthDay[3]);
    for (const year of [base.getUTCFullYear(), base.getUTCFullYear() + 1]) {
      const candidate = new Date(Date.UTC(year, month, date));
      if (candidate.getUTCDate() !== date) return null;
      if (candidate >= base) return candidate.toISOString().slice(0, 10);
    }
  }
  return null;
}
