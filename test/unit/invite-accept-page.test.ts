import { escapeHtml, shellWord } from '../../infra/local/invite-accept-page';

/** The accept page's quoting (test/integration/invite-walkthrough.test.ts serves the page itself). */
describe('invite accept page quoting', () => {
  it('leaves a plain email bare in a command, and single-quotes anything a shell would read', () => {
    expect(shellWord('ann.lee+sales@acme.example')).toBe('ann.lee+sales@acme.example');
    expect(shellWord("o'brien@acme.example")).toBe(`'o'\\''brien@acme.example'`);
    expect(shellWord('$(rm -rf ~)@acme.example')).toBe(`'$(rm -rf ~)@acme.example'`);
    expect(shellWord('a b;c@acme.example')).toBe(`'a b;c@acme.example'`);
  });

  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
