import * as v from 'valibot';
import { ValidationError } from '../../shared/http/errors';
import { integerParam, parseInput } from '../../shared/http/validation';
import { ListUsersQuery } from '../../shared/schemas/members';

describe('query validation', () => {
  it('applies the List users defaults', () => {
    expect(parseInput(ListUsersQuery, {})).toEqual({ page: 1, limit: 25 });
    expect(parseInput(ListUsersQuery, { q: '  Ann ', page: '3', limit: '100' })).toEqual({ q: 'Ann', page: 3, limit: 100 });
  });

  it.each(['0', '101', '-1', '1.5', '1e2', ' 5', 'ten', ''])('rejects limit=%j rather than clamping it', (limit) => {
    expect(() => parseInput(ListUsersQuery, { limit })).toThrow(ValidationError);
    expect(() => parseInput(ListUsersQuery, { limit })).toThrow(/^limit: must be an integer between 1 and 100$/);
  });

  it('names unknown parameters', () => {
    expect(() => parseInput(ListUsersQuery, { pgae: '2' })).toThrow('pgae: unknown parameter');
  });

  it('reports every problem at once, with the given error code', () => {
    try {
      parseInput(v.object({ a: integerParam({ defaultValue: 1, min: 1, max: 5 }), b: integerParam({ defaultValue: 1, min: 1 }) }), { a: '9', b: '0' }, 'CUSTOM');
      throw new Error('should have thrown');
    } catch (error) {
      expect(error).toMatchObject({ statusCode: 400, code: 'CUSTOM', message: 'a: must be an integer between 1 and 5; b: must be an integer 1 or more' });
    }
  });
});
