import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayTokenAuthorizerEvent, S3Event } from 'aws-lambda';
import { compilePathTemplate } from '../../shared/http/path-template';
import { endpointFor, ROUTES, SAMPLE_REQUESTS, type RouteName } from '../../shared/routes/manifest';
import type { CredentialName, SampleIds, SampleRequest } from '../../shared/routes/sample-request';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import { methodArnFor, proxyEvent, tokenAuthorizerEvent } from '../local/lambda-events';
import type { SampleSetup } from './sample-setup';

/**
 * The events of the sample requests as AWS sends them: a route's REST proxy event (as API
 * Gateway sends it after the TOKEN authorizer, with the authorizer's context), the TOKEN
 * authorizer event of a credential, and the S3 ObjectCreated event of the sample upload.
 */

// Fixed request metadata, so regenerating the events gives the same files.
const REQUEST_TIME = new Date('2026-11-16T09:30:00.000Z');
const SOURCE_IP = '203.0.113.10';
const HOST = '127.0.0.1:3000';

/** A stable UUID-shaped id from a name. */
function stableUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Path parameters and the concrete path of a route's sample request. */
function samplePath(routeName: RouteName, ids: SampleIds, request: SampleRequest): { params: Record<string, string>; pathname: string } {
  const template = compilePathTemplate(ROUTES[routeName].path);
  const params: Record<string, string> = { ...(template.parameterNames.includes('orgId') ? { orgId: ids.orgId } : {}), ...request.path };
  return { params, pathname: template.expand(params) };
}

/** The REST proxy event of a route's sample request, as the API Gateway emulator (and API Gateway) sends it. */
export function sampleProxyEvent(
  setup: SampleSetup,
  routeName: RouteName,
  request: SampleRequest = SAMPLE_REQUESTS[routeName](setup.ids),
): APIGatewayProxyEvent {
  const endpoint = endpointFor(routeName, ROUTES[routeName].path);
  const { params, pathname } = samplePath(routeName, setup.ids, request);
  const url = new URL(`http://${HOST}${pathname}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  const credential = request.credential ? setup.credentials[request.credential] : undefined;
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(credential ? { authorization: credential.authorization } : {}),
    ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    host: HOST,
    'user-agent': 'curl/8.5.0',
    'x-correlation-id': `sample-${routeName}`,
  };
  const event = proxyEvent({
    request: { httpVersion: '1.1', socket: { remoteAddress: SOURCE_IP } },
    url,
    headers,
    body: request.body === undefined ? null : JSON.stringify(request.body),
    endpoint,
    params,
    stage: setup.stage,
    authorizerContext: credential ? { ...credential.context, principalId: credential.principalId, integrationLatency: 0 } : null,
  });
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      requestId: stableUuid(`${routeName}:${pathname}`),
      requestTime: REQUEST_TIME.toUTCString(),
      requestTimeEpoch: REQUEST_TIME.getTime(),
    },
  };
}

/** The TOKEN authorizer event of a credential, for the request of a route (List users by default). */
export function sampleAuthorizerEvent(
  setup: SampleSetup,
  credential: CredentialName = 'orgKey',
  routeName: RouteName = 'listUsers',
): APIGatewayTokenAuthorizerEvent {
  const { pathname } = samplePath(routeName, setup.ids, SAMPLE_REQUESTS[routeName](setup.ids));
  return tokenAuthorizerEvent(setup.credentials[credential].authorization, methodArnFor(setup.stage, ROUTES[routeName].method, pathname));
}

/** The S3 ObjectCreated event of the sample recording's upload, in S3's notification shape. */
export function sampleUploadEvent(setup: SampleSetup): S3Event {
  const { ids } = setup;
  const key = recordingObjectKey(ids.orgId, ids.uploadRecordingId, ids.uploadFilename);
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: setup.region,
        eventTime: REQUEST_TIME.toISOString(),
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'AWS:AROAEXAMPLEUPLOADER:recordings-upload' },
        requestParameters: { sourceIPAddress: SOURCE_IP },
        responseElements: {
          'x-amz-request-id': 'C3D13FE58DE4C810',
          'x-amz-id-2': 'FMyUVURIY8/IgAtTv8xRjskZQpcIZ9KG4V5Wp6S7S/JRWeUWerMUE5JgHvANOjpD',
        },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'recordings-object-created',
          bucket: { name: setup.bucketName, ownerIdentity: { principalId: 'A3NL1KOZZKExample' }, arn: `arn:aws:s3:::${setup.bucketName}` },
          // S3 sends keys URL-encoded.
          object: {
            key: encodeURIComponent(key).replace(/%2F/g, '/'),
            size: ids.uploadBytes,
            eTag: 'd41d8cd98f00b204e9800998ecf8427e',
            sequencer: '0A1B2C3D4E5F678910',
          },
        },
      },
    ],
  };
}
