import { matchAssignee } from '../../../shared/summarization/assignees';
import { bedrockModelIdFor } from '../../../shared/summarization/model-map';
import { parseSummaryOutput, summaryMarkdownOf } from '../../../shared/summarization/summary-output';

const members = [
  { user_id: 'u_maria', display_name: 'María García', email: 'maria@example.com' },
  { user_id: 'u_tom1', display_name: 'Tom Baker', email: 'tom@example.com' },
  { user_id: 'u_tom2', display_name: 'Tom Hardy', email: 'hardy@example.com' },
];

describe('matchAssignee', () => {
  it('finds the member a full display name or a first name unique in the organization designates, ignoring case and accents', () => {
    expect(matchAssignee('Maria', members)).toBe('u_maria');
    expect(matchAssignee('maría  garcía', members)).toBe('u_maria');
    expect(matchAssignee('Tom Hardy', members)).toBe('u_tom2');
  });

  it('is null when the name is ambiguous, unknown, a surname alone or absent', () => {
    expect(matchAssignee('Tom', members)).toBeNull();
    expect(matchAssignee('Pedro', members)).toBeNull();
    expect(matchAssignee('García', members)).toBeNull();
    expect(matchAssignee('Maria Lopez', members)).toBeNull();
    expect(matchAssignee(null, members)).toBeNull();
    expect(matchAssignee('  ', members)).toBeNull();
  });
});

describe('bedrockModelIdFor', () => {
  const map = { 'gpt-4o-mini': 'us.amazon.nova-lite-v1:0', 'gpt-4o': 'us.amazon.nova-pro-v1:0' };
  it('maps the selected model, and a model without an entry to the fallback model', () => {
    expect(bedrockModelIdFor('gpt-4o', map, 'gpt-4o-mini')).toBe('us.amazon.nova-pro-v1:0');
    expect(bedrockModelIdFor('gemini-2.5-pro', map, 'gpt-4o-mini')).toBe('us.amazon.nova-lite-v1:0');
    expect(bedrockModelIdFor('constructor', map, 'gpt-4o-mini')).toBe('us.amazon.nova-lite-v1:0');
    expect(() => bedrockModelIdFor('x', map, 'y')).toThrow(/fallback y/);
  });
});

describe('the summary output', () => {
  const sections = [
    { title: 'Overview', prompt: 'p' },
    { title: 'Next steps', prompt: 'q' },
  ];
  it('drops a heading the model repeated, nulls missing optional fields, and joins the markdown under the titles', () => {
    const parsed = parseSummaryOutput(
      {
        language: 'English',
        sections: [
          { title: 'Overview', markdown: '## Overview\nAll good.' },
          { title: 'Next steps', markdown: '- Ship it' },
        ],
        action_items: [{ text: ' Ship it ', assignee: '', due_date: null, timestamp: null }],
      },
      { sections, languages: ['English'] },
    );
    expect(parsed).toEqual({
      output: {
        language: 'English',
        sections: [
          { title: 'Overview', markdown: 'All good.' },
          { title: 'Next steps', markdown: '- Ship it' },
        ],
        action_items: [{ text: 'Ship it', assignee: null, due_date: null, timestamp: null }],
      },
    });
    expect(summaryMarkdownOf(('output' in parsed && parsed.output.sections) || [])).toBe(
      '## Overview\n\nAll good.\n\n## Next steps\n\n- Ship it',
    );
  });

  it('refuses other titles, another order, another language, and values outside the schema', () => {
    const base = {
      language: 'English',
      sections: [
        { title: 'Overview', markdown: '' },
        { title: 'Next steps', markdown: '' },
      ],
      action_items: [],
    };
    const check = (input: unknown) => parseSummaryOutput(input, { sections, languages: ['English'] });
    expect(check(base)).toHaveProperty('output');
    expect(check({ ...base, sections: [...base.sections].reverse() })).toHaveProperty('problem');
    expect(check({ ...base, sections: base.sections.slice(0, 1) })).toHaveProperty('problem');
    expect(check({ ...base, language: 'French' })).toHaveProperty('problem');
    expect(check({ ...base, action_items: [{ text: 'x', assignee: null, due_date: 'Friday', timestamp: null }] })).toHaveProperty(
      'problem',
    );
    expect(check({ ...base, action_items: [{ text: 'x', assignee: null, due_date: null, timestamp: -1 }] })).toHaveProperty('problem');
    expect(check('not an object')).toHaveProperty('problem');
  });
});
