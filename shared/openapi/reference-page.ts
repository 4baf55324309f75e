import type { CacheableRepresentation } from '../http/cached-response';
import { DOCS_PATH, OPENAPI_PATH, REFERENCE_ASSETS } from '../routes/docs/reference-paths';

/**
 * The interactive API reference at /docs: Scalar's API reference (@scalar/api-reference) of
 * the OpenAPI document, served by the API itself from the installed package, never from a CDN,
 * under a strict Content-Security-Policy. The page holds no inline script: its configuration
 * is a script of ours (REFERENCE_CONFIG_SCRIPT), and nothing in it calls out of the origin
 * (no fonts, proxy, telemetry, AI agent or MCP, no developer toolbar).
 */

/** The element the reference mounts on. */
const MOUNT_ID = 'voice-org-reference';

/** The page and the document change with each deployment: a short lifetime, then a revalidation (ETag). */
export const SHORT_CACHE = 'public, max-age=300';
/** Scalar's bundle never changes under its versioned name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The page's Content-Security-Policy. Scripts come from the origin only, with no inline script
 * and no eval; requests (the document, "try it") go to the origin only; the page cannot be
 * framed. Styles allow 'unsafe-inline' because Scalar injects its stylesheet, theme and
 * component styles as <style> elements at run time and sets style attributes: a nonce would
 * have to change per response (defeating the page's cache and ETag), and hashes would break
 * silently with a Scalar upgrade or a theme change. A style cannot run script.
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Scalar's configuration, a script of its own (the CSP allows no inline script), loaded before
 * Scalar's bundle. Zod, inside the bundle, probes for eval with `Function('')` unless told it
 * runs "jitless": the probe would be refused by the CSP and reported as a violation.
 */
export const REFERENCE_CONFIG_SCRIPT = `'use strict';
// Scalar's API reference of this API (shared/openapi/reference-page.ts): nothing here calls out of this origin.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
document.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('${MOUNT_ID}');
  Scalar.createApiReference(root, {
    url: root.dataset.openapiUrl,
    // "Try it" and the code samples use the document's server: the deployment that serves this page.
    authentication: { preferredSecurityScheme: 'apiKey' },
    persistAuth: false,
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    documentDownloadType: 'json',
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    mcp: { disabled: true },
    agent: { disabled: true },
    // "Open API Client" links to client.scalar.com with this document's URL: "Test Request" is the client, here.
    hideClientButton: true,
  });
});
`;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The reference page, for an API served under `basePath` (the stage or a custom domain's base path, or ''). */
export function referencePage(basePath: string): CacheableRepresentation {
  const at = (path: string) => escapeHtml(`${basePath}${path}`);
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Voice Org API reference</title>
<link rel="icon" href="data:,">
<script defer src="${at(`${DOCS_PATH}/${REFERENCE_ASSETS.config}`)}"></script>
<script defer src="${at(`${DOCS_PATH}/${REFERENCE_ASSETS.scalarBundle}`)}"></script>
</head>
<body>
<div id="${MOUNT_ID}" data-openapi-url="${at(OPENAPI_PATH)}"></div>
<noscript>The interactive reference needs JavaScript. The OpenAPI document is at <a href="${at(OPENAPI_PATH)}">${at(OPENAPI_PATH)}</a>.</noscript>
</body>
</html>
`;
  return {
    contentType: 'text/html; charset=utf-8',
    body,
    cacheControl: SHORT_CACHE,
    headers: { 'content-security-policy': REFERENCE_CSP, 'referrer-policy': 'no-referrer' },
  };
}

/** The configuration script. */
export function referenceConfigScript(): CacheableRepresentation {
  return { contentType: 'text/javascript; charset=utf-8', body: REFERENCE_CONFIG_SCRIPT, cacheControl: SHORT_CACHE };
}

/** The OpenAPI document as served: its one server is the API that serves it (`serverUrl`), so "try it" calls that deployment. */
export function servedDocument(document: Record<string, unknown>, serverUrl: string): CacheableRepresentation {
  return {
    contentType: 'application/json',
    body: JSON.stringify({ ...document, servers: [{ url: serverUrl, description: 'This deployment: the server of this document' }] }),
    cacheControl: SHORT_CACHE,
  };
}
