import { actionItemOf, withoutDeadline } from '../../../infra/local/local-action-items';
import { summarizeTranscript } from '../../../infra/local/local-summarizer';
import { BUILT_IN_TEMPLATE } from '../../../shared/summarization/built-in-template';

// 2026-11-24 is a Tuesday.
const day = '2026-11-24';
const lines = [
  { start: 2, speaker: 'spk_0', text: 'Good morning everyone, thanks for joining the planning meeting.' },
  { start: 14, speaker: 'spk_1', text: 'The budget for the new office is approved. We decided to move the launch to March.' },
  { start: 31, speaker: 'spk_0', text: 'Maria will send the contract by Friday.' },
  { start: 47, speaker: 'Priya', text: "I'll book the meeting room for the workshop. The risk is that the vendor delays the delivery." },
  { start: 60, speaker: 'spk_1', text: 'It will be a long quarter. The team will grow next year.' },
];

describe('the local summarizer', () => {
  const summary = summarizeTranscript({ sections: BUILT_IN_TEMPLATE.sections, language: 'English', day, lines });

  it('finds the action item of "Maria will send the contract by Friday": the task, Maria, the Friday after the recording, where it was said', () => {
    expect(summary.action_items).toContainEqual({ text: 'Send the contract', assignee: 'Maria', due_date: '2026-11-27', timestamp: 31 });
  });

  it('gives "I will" tasks to a named speaker, and finds none in sentences whose subject is nobody', () => {
    expect(summary.action_items).toContainEqual({
      text: 'Book the meeting room for the workshop',
      assignee: 'Priya',
      due_date: null,
      timestamp: 47,
    });
    expect(summary.action_items).toHaveLength(2);
  });

  it('writes the template sections in order, the decisions from what was decided and the action items listed', () => {
    expect(summary.sections.map((section) => section.title)).toEqual(['Overview', 'Key points', 'Decisions', 'Action items']);
    expect(summary.sections[2].markdown).toBe('- The budget for the new office is approved.\n- We decided to move the launch to March.');
    expect(summary.sections[3].markdown).toBe(
      '- Send the contract (Maria, due 2026-11-27)\n- Book the meeting room for the workshop (Priya)',
    );
    expect(summary.language).toBe('English');
  });

  it('is deterministic', () => {
    expect(summarizeTranscript({ sections: BUILT_IN_TEMPLATE.sections, language: 'English', day, lines })).toEqual(summary);
  });

  it('says so when nothing fits a section, and when there is no action item', () => {
    const quiet = summarizeTranscript({
      sections: [
        { title: 'Risks', prompt: 'Risks and blockers raised.' },
        { title: 'Next steps', prompt: 'What happens next.' },
      ],
      language: 'English',
      day,
      lines: [{ start: 0, speaker: 'spk_0', text: 'The weather was lovely on the coast this weekend.' }],
    });
    expect(quiet.sections).toEqual([
      { title: 'Risks', markdown: '- Nothing was said about this.' },
      { title: 'Next steps', markdown: '- No action items were recorded.' },
    ]);
  });

  it('finds the tasks inside a long unpunctuated turn, each up to its deadline, and keeps its bullets short', () => {
    const turn =
      'we went through the numbers for the quarter and the budget looks fine so maria will send the contract by friday and then tom will review the budget by next week because the board meets soon ' +
      'and the rest of the meeting was about hiring '.repeat(8);
    const spoken = summarizeTranscript({
      sections: BUILT_IN_TEMPLATE.sections,
      language: 'English',
      day,
      lines: [{ start: 12, speaker: 'spk_0', text: turn }],
    });
    expect(spoken.action_items).toEqual([
      { text: 'Send the contract', assignee: 'Maria', due_date: '2026-11-27', timestamp: 12 },
      { text: 'Review the budget', assignee: 'Tom', due_date: '2026-11-30', timestamp: 12 },
    ]);
    expect(
      Math.max(...spoken.sections.flatMap((section) => section.markdown.split('\n').map((line) => line.split(' ').length))),
    ).toBeLessThanOrEqual(42);
  });

  it('finds tasks introduced as action items, and a second task after "and <name> will"', () => {
    const said = summarizeTranscript({
      sections: BUILT_IN_TEMPLATE.sections,
      language: 'English',
      day,
      lines: [
        {
          start: 3,
          speaker: 'spk_0',
          text: 'Action item: draft the press release by Thursday. Maria will call the venue and Tom will book the flights tomorrow.',
        },
      ],
    });
    expect(said.action_items).toEqual([
      { text: 'Draft the press release', assignee: null, due_date: '2026-11-26', timestamp: 3 },
      { text: 'Call the venue', assignee: 'Maria', due_date: null, timestamp: 3 },
      { text: 'Book the flights', assignee: 'Tom', due_date: '2026-11-25', timestamp: 3 },
    ]);
  });

  it('writes every section of an empty transcript, saying nothing was said', () => {
    const empty = summarizeTranscript({ sections: BUILT_IN_TEMPLATE.sections, language: 'English', day, lines: [] });
    expect(empty.sections.map((section) => section.markdown)).toEqual([
      '- Nothing was said about this.',
      '- Nothing was said about this.',
      '- Nothing was said about this.',
      '- No action items were recorded.',
    ]);
    expect(empty.action_items).toEqual([]);
  });

  it('reads the sentences of the local speech engine, lower case but their first letter', () => {
    const spoken = summarizeTranscript({
      sections: BUILT_IN_TEMPLATE.sections,
      language: 'English',
      day,
      lines: [{ start: 7, speaker: 'spk_0', text: 'We agreed on the budget so maria will send the contract by friday. Thanks everyone.' }],
    });
    expect(spoken.action_items).toEqual([{ text: 'Send the contract', assignee: 'Maria', due_date: '2026-11-27', timestamp: 7 }]);
  });

  it('reads the unpunctuated lower-case text of the local speech engine', () => {
    const spoken = summarizeTranscript({
      sections: BUILT_IN_TEMPLATE.sections,
      language: 'English',
      day,
      lines: [{ start: 5, speaker: 'spk_0', text: 'okay so maria will send the contract by friday' }],
    });
    expect(spoken.action_items).toEqual([{ text: 'Send the contract', assignee: 'Maria', due_date: '2026-11-27', timestamp: 5 }]);
  });
});

describe('action item rules', () => {
  const context = {
    speaker: 'spk_0',
    day,
    isVerb: (word: string) => ['send', 'review', 'book', 'call', 'draft'].includes(word.toLowerCase()),
    isName: (word: string) => /^[A-Z]/.test(word),
  };

  it.each([
    ['Tom to review the budget by next week.', { text: 'Review the budget', assignee: 'Tom', due_date: '2026-11-30' }],
    ['Action item: draft the press release', { text: 'Draft the press release', assignee: null, due_date: null }],
    ["Let's call the supplier tomorrow", { text: 'Call the supplier', assignee: null, due_date: '2026-11-25' }],
    ['We need to call the supplier by tomorrow.', { text: 'Call the supplier', assignee: null, due_date: '2026-11-25' }],
    ['I will send the notes by end of day', { text: 'Send the notes', assignee: null, due_date: '2026-11-24' }],
    ['Ana Lopez will book the venue by December 3rd.', { text: 'Book the venue', assignee: 'Ana Lopez', due_date: '2026-12-03' }],
    ['This will send the wrong message.', null],
    ['The team will review the budget.', null],
  ])('%s', (sentence, expected) => {
    expect(actionItemOf(sentence, context) ?? null).toEqual(expected);
  });

  it.each([
    ['by Tuesday', '2026-12-01'],
    ['by Wednesday', '2026-11-25'],
    ['by next Friday', '2026-12-04'],
    ['by the end of the week', '2026-11-27'],
    ['by the end of the month', '2026-11-30'],
    ['before January 5', '2027-01-05'],
    ['on the 1st of December', '2026-12-01'],
    ['by 2026-12-24', '2026-12-24'],
    ['by February 30', null],
  ])('resolves "%s" against a Tuesday', (phrase, due) => {
    expect(withoutDeadline(`send the contract ${phrase}`, day)).toEqual({ text: 'send the contract', due_date: due });
  });
});
