import type { FunctionPermissions } from '../function-permissions';

/**
 * The Lambda TOKEN authorizer: API Gateway calls it with the Authorization header of every
 * request to a route that is not public, and caches its answer per token. Like a route's
 * handler, the stack builds and grants its function from this entry, the local API emulator
 * runs it, and it has a sample event.
 */
export const AUTHORIZER = {
  handler: 'functions/authorizer',
  summary: 'Checks the bearer credential (API key or ID token) of every request to a route that is not public',
  // Reads keys and identity links; writes an identity link the first time a user signs in, and a key's last use once an hour.
  permissions: { table: ['GetItem', 'PutItem', 'UpdateItem'] },
} as const satisfies { handler: string; summary: string; permissions: FunctionPermissions };
