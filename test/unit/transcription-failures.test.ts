import { failureOf, transcriptErrorText, transcriptionFailure } from '../../shared/transcription/transcription-failures';

describe('failureOf', () => {
  it("maps Transcribe's documented FailureReason values to UNSUPPORTED_MEDIA, keeping its words as the reason", () => {
    for (const text of [
      'Unsupported media format',
      'The media format provided does not match the detected media format',
      'Invalid sample rate for audio file',
      'The sample rate provided does not match the detected sample rate',
      'Invalid file size: file size too large',
      'Invalid number of channels: number of channels too large',
    ]) {
      expect(failureOf(text)).toEqual({ code: 'UNSUPPORTED_MEDIA', reason: text });
    }
    expect(failureOf('Failed to parse audio file.').code).toBe('UNSUPPORTED_MEDIA');
  });

  it("maps the local stand-in's wording: unsupported language, undecodable media, missing engine", () => {
    expect(failureOf('Unsupported language: the local engine (PocketSphinx) transcribes en-US only, not de-DE.').code).toBe(
      'UNSUPPORTED_LANGUAGE',
    );
    expect(
      failureOf('Unsupported media format: ffmpeg could not decode it as audio (Invalid data found when processing input).').code,
    ).toBe('UNSUPPORTED_MEDIA');
    expect(failureOf("ENGINE_UNAVAILABLE: the local engine's npm packages are missing (onnxruntime-node): run npm ci")).toEqual({
      code: 'ENGINE_UNAVAILABLE',
      reason: "the local engine's npm packages are missing (onnxruntime-node): run npm ci",
    });
  });

  it('calls anything else TRANSCRIPTION_FAILED, with a default reason when there is none, on one bounded line', () => {
    expect(failureOf('Internal failure\n in the service')).toEqual({
      code: 'TRANSCRIPTION_FAILED',
      reason: 'Internal failure in the service',
    });
    expect(failureOf(undefined)).toEqual({ code: 'TRANSCRIPTION_FAILED', reason: 'The transcription engine failed.' });
    expect(failureOf('x'.repeat(1000)).reason).toHaveLength(300);
  });

  it('writes transcript_error as "<CODE>: <reason>"', () => {
    expect(transcriptErrorText(failureOf('Unsupported media format'))).toBe('UNSUPPORTED_MEDIA: Unsupported media format');
    expect(transcriptErrorText(transcriptionFailure('TRANSCRIPTION_QUOTA_EXCEEDED'))).toBe(
      "TRANSCRIPTION_QUOTA_EXCEEDED: The organization's transcription minutes for this month are used up.",
    );
  });
});
