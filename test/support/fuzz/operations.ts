import { operationIdOf } from '../../../shared/openapi/document';
import { listEndpoints } from '../../../shared/routes/manifest';
import type { RouteAccess } from '../../../shared/routes/route-definition';

/** What the fuzzer needs of one operation of the OpenAPI document. */
export interface FuzzOperation {
  operationId: string;
  method: string;
  /** The path template, e.g. /api/v1/organization/{orgId}/users. */
  template: string;
  pathParams: string[];
  queryParams: { name: string; required: boolean; schema: Record<string, any> }[];
  /** The JSON Schema of the JSON request body, when the operation takes one. */
  bodySchema?: Record<string, any>;
  /** The statuses the document declares for the operation. */
  statuses: Set<number>;
  /** Credential kinds the route manifest allows (none for public routes). */
  allowed: CredentialKind[];
}

export type CredentialKind = 'idToken' | 'orgKey' | 'userKey';
export const CREDENTIAL_KINDS: readonly CredentialKind[] = ['idToken', 'orgKey', 'userKey'];

type Json = Record<string, any>;

function allowedKinds(access: RouteAccess | 'public'): CredentialKind[] {
  if (access === 'public') return [];
  return CREDENTIAL_KINDS.filter((kind) => access[kind] !== undefined);
}

/** Every operation of the document, in document order, with its access policy from the route manifest. */
export function fuzzOperations(document: Json): FuzzOperation[] {
  const accessById = new Map(listEndpoints().map((endpoint) => [operationIdOf(endpoint), endpoint.route.access]));
  const operations: FuzzOperation[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const parameters: Json[] = op.parameters ?? [];
      const access = accessById.get(op.operationId);
      if (access === undefined) throw new Error(`fuzz: operation ${op.operationId} is not in the route manifest`);
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
        bodySchema: op.requestBody?.content?.['application/json']?.schema,
        statuses: new Set(Object.keys(op.responses).map(Number)),
        allowed: allowedKinds(access),
      });
    }
  }
  return operations;
}
