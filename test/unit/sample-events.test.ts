import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayTokenAuthorizerEvent, S3Event } from 'aws-lambda';
import { eventFileText, EVENTS_DIR, sampleEvents } from '../../infra/sam/function-events';
import { placeholderSetup } from '../../infra/sam/sample-setup';
import { principalFromContext } from '../../shared/auth/principal';
import { GATEWAY } from '../../shared/http/gateway';
import { compilePathTemplate } from '../../shared/http/path-template';
import { listEndpoints, ROUTES } from '../../shared/routes/manifest';
import { listFunctions } from '../../infra/function-list';
import { parseRecordingObjectKey } from '../../shared/storage/recording-objects';

/**
 * events/ holds one sample event per Lambda function (for `sam local invoke -e`), exactly as
 * infra/sam/generate-events.ts generates them from the route manifest. A route added, or a
 * change to the generator, fails here until the files are generated again.
 * test/integration/sample-events.test.ts runs each file through its handler.
 */
const repoRoot = path.resolve(__dirname, '../..');
const dir = path.join(repoRoot, EVENTS_DIR);
const events = sampleEvents(placeholderSetup());
const REGENERATE = 'run `npx tsx infra/sam/generate-events.ts` and commit events/';

describe('sample events', () => {
  it('cover every function of the stack: the authorizer, one per handler module, the upload completion', () => {
    expect(events.map((e) => ({ handler: e.handler, kind: e.kind }))).toEqual(
      listFunctions().map((fn) => ({ handler: fn.handler, kind: fn.kind === 'event' ? 's3' : fn.kind })),
    );
  });

  it(`are committed and up to date in ${EVENTS_DIR}/ (else ${REGENERATE})`, () => {
    const present = existsSync(dir)
      ? readdirSync(dir)
          .filter((file) => file.endsWith('.json'))
          .sort()
      : [];
    expect(present).toEqual(events.map((e) => e.file).sort());
    const stale = events.filter((e) => readFileSync(path.join(dir, e.file), 'utf8') !== eventFileText(e.event)).map((e) => e.file);
    expect(stale).toEqual([]);
  });

  it.each(events.filter((e) => e.kind === 'http').map((e) => [e.file, e] as const))('%s is a proxy event of its route', (_file, sample) => {
    const event = sample.event as APIGatewayProxyEvent;
    const route = ROUTES[sample.routeName!];
    expect(
      listEndpoints().some((e) => e.routeName === sample.routeName && e.path === event.resource && e.method === event.httpMethod),
    ).toBe(true);
    expect(compilePathTemplate(event.resource).match(event.path)).toBeDefined();
    if (route.access === 'public') {
      expect(event.requestContext.authorizer).toBeNull();
    } else {
      // What the TOKEN authorizer passes on, and a header API Gateway lets through to it.
      expect(principalFromContext(event.requestContext.authorizer)).toBeDefined();
      expect(event.headers.authorization).toMatch(new RegExp(GATEWAY.authorizationPattern));
    }
    if (event.body !== null) expect(() => JSON.parse(event.body!)).not.toThrow();
  });

  it('give the authorizer a TOKEN event API Gateway would send', () => {
    const event = events.find((e) => e.kind === 'authorizer')!.event as APIGatewayTokenAuthorizerEvent;
    expect(event.type).toBe('TOKEN');
    expect(event.authorizationToken).toMatch(new RegExp(GATEWAY.authorizationPattern));
    expect(event.methodArn).toMatch(/^arn:aws:execute-api:[\w-]+:\d{12}:\w+\/\w+\/GET\/api\/v1\//);
  });

  it('give the completion function an ObjectCreated event for a recording upload key', () => {
    const event = events.find((e) => e.kind === 's3')!.event as S3Event;
    expect(event.Records).toHaveLength(1);
    expect(event.Records[0].eventName).toMatch(/^ObjectCreated:/);
    expect(parseRecordingObjectKey(decodeURIComponent(event.Records[0].s3.object.key))).toBeDefined();
  });
});
