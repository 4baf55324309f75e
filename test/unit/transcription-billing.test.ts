import { billedMinutesOf } from '../../shared/transcription/billing';

describe('billedMinutesOf', () => {
  it('rounds the audio length up to whole minutes, any audio at least one', () => {
    expect([0.001, 1, 59.999, 60, 60.001, 61, 119.5, 120, 14_400].map(billedMinutesOf)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 240]);
  });

  it('bills nothing for no audio or a length that is not a number', () => {
    expect([0, -5, Number.NaN, Number.POSITIVE_INFINITY].map(billedMinutesOf)).toEqual([0, 0, 0, 0]);
  });

  it('reads lengths to the millisecond, as they are stored: 60.0004 s is one minute', () => {
    expect(billedMinutesOf(60.0004)).toBe(1);
    expect(billedMinutesOf(60.0005)).toBe(2);
  });
});
