import { proxyEvent } from '../../infra/local/lambda-events';
import { listEndpoints } from '../../shared/routes/manifest';

/** The local emulator's proxy event carries every query parameter, whatever its name. */
describe('proxyEvent query parameters', () => {
  const endpoint = listEndpoints().find((e) => e.path === '/api/v1/public/users')!;
  const eventFor = (query: string) =>
    proxyEvent({
      request: { httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } },
      url: new URL(`http://localhost/api/v1/public/users${query}`),
      headers: {},
      body: null,
      endpoint,
      params: {},
      stage: 'local',
      authorizerContext: null,
    });

  it('carries names of Object.prototype members as own parameters, as the JSON event of AWS does', () => {
    const event = eventFor('?__proto__=a&constructor=b&toString=c&toString=d&hasOwnProperty=e');
    const single = event.queryStringParameters!;
    const multi = event.multiValueQueryStringParameters!;
    expect(Object.keys(single)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
    expect(Object.getOwnPropertyDescriptor(single, '__proto__')?.value).toBe('a');
    expect([single.constructor, single.toString, single.hasOwnProperty]).toEqual(['b', 'd', 'e']);
    expect(Object.getOwnPropertyDescriptor(multi, '__proto__')?.value).toEqual(['a']);
    expect(multi.toString).toEqual(['c', 'd']);
    // A parameter named __proto__ must not become the object's prototype.
    expect(Object.getPrototypeOf(single)).toBe(Object.prototype);
  });

  it('gives null for no parameters', () => {
    expect(eventFor('').queryStringParameters).toBeNull();
    expect(eventFor('').multiValueQueryStringParameters).toBeNull();
  });
});
