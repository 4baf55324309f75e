import { contentDisposition } from '../../shared/domain/recordings/get-recording-media';

/**
 * The Content-Disposition a media URL makes S3 answer with (RFC 6266): the original file
 * name for every client, exactly for those that read filename* (RFC 8187), approximately in
 * the ASCII fallback for those that do not.
 */
describe('contentDisposition', () => {
  it('an ASCII name appears as is in both forms', () => {
    expect(contentDisposition('inline', 'standup-2026.m4a')).toBe(`inline; filename="standup-2026.m4a"; filename*=UTF-8''standup-2026.m4a`);
  });

  it('attachment saves instead of playing', () => {
    expect(contentDisposition('attachment', 'a.mp3')).toMatch(/^attachment; filename="a\.mp3"; /);
  });

  it('accents are dropped in the fallback and UTF-8 percent-encoded in filename*', () => {
    expect(contentDisposition('inline', 'Réunion équipe.m4a')).toBe(
      `inline; filename="Reunion equipe.m4a"; filename*=UTF-8''R%C3%A9union%20%C3%A9quipe.m4a`,
    );
  });

  it('characters with no ASCII form become _ in the fallback; filename* keeps them', () => {
    const value = contentDisposition('inline', '会議 😀.wav');
    expect(value).toContain('filename="__ __.wav"');
    expect(value).toContain(`filename*=UTF-8''${encodeURIComponent('会議 😀.wav')}`);
    expect(decodeURIComponent(value.split("UTF-8''")[1])).toBe('会議 😀.wav');
  });

  it('quotes and backslashes cannot end the quoted fallback early', () => {
    const value = contentDisposition('inline', 'say "hi" \\ bye.m4a');
    expect(value).toContain('filename="say _hi_ _ bye.m4a"');
    expect(value).toContain(`filename*=UTF-8''say%20%22hi%22%20%5C%20bye.m4a`);
  });

  it("filename* percent-encodes what RFC 8187 does not allow as is (encodeURIComponent leaves ' ( ) * alone)", () => {
    expect(contentDisposition('inline', "it's (final)*.m4a")).toContain(`filename*=UTF-8''it%27s%20%28final%29%2A.m4a`);
  });

  it('the whole value is printable ASCII: it travels in an HTTP header unchanged', () => {
    for (const name of ['Réunion.m4a', '会議.wav', 'a\u0085b.m4a', 'tab\there.mp3']) {
      expect(contentDisposition('inline', name)).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});
