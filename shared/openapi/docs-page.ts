/**
 * The browsable API reference at /docs: one self-contained HTML page (no scripts, no
 * network) rendered from the OpenAPI document, listing every operation with its access,
 * parameters, request body and responses.
 */

type Json = Record<string, any>;

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const code = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;

function resolve(document: Json, node: Json): Json {
  if (!node?.$ref) return node;
  return (node.$ref as string).split('/').slice(1).reduce((at: Json, key: string) => at[key], document);
}

function operationHtml(document: Json, path: string, method: string, op: Json): string {
  const params = (op.parameters ?? []) as Json[];
  const paramRows = params
    .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escape(JSON.stringify(p.schema))}</code></td></tr>`)
    .join('');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries<Json>(op.responses)
    .map(([status, response]) => {
      const resolved = resolve(document, response);
      const schema = resolved.content?.['application/json']?.schema;
      return `<details><summary><b>${status}</b> ${escape(resolved.description ?? '')}</summary>${schema ? code(schema) : ''}</details>`;
    })
    .join('');
  const security = (op.security as Json[]).length ? (op.security as Json[]).map((s) => Object.keys(s).join(' + ')).join(' or ') : 'none';
  return `<section class="op" id="${escape(op.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(op.summary ?? '')}</p>
<p class="meta">operationId <code>${escape(op.operationId)}</code> · security: ${escape(security)}<br>${escape(op.description ?? '')}</p>
${params.length ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${paramRows}</tbody></table>` : ''}
${body ? `<details><summary>Request body (application/json)</summary>${code(body)}</details>` : ''}
<h4>Responses</h4>${responses}
</section>`;
}

/** The HTML of the reference page for a document. */
export function docsPage(document: Json, openApiUrl = '/api/v1/openapi.json'): string {
  const operations: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) operations.push({ path, method, op });
  }
  const index = operations
    .map(({ path, method, op }) => `<li><a href="#${escape(op.operationId)}"><span class="method ${method}">${method.toUpperCase()}</span> ${escape(path)}</a> — ${escape(op.summary ?? '')}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)} reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{background:#f5f5f5;padding:.5rem;overflow:auto}
.method{display:inline-block;min-width:4.5rem;text-align:center;border-radius:3px;color:#fff;font-weight:bold;font-size:.8rem;padding:.1rem .3rem}
.get{background:#2b7bb9}.post{background:#2e9b4f}.put{background:#b9802b}.patch{background:#8a4fb9}.delete{background:#c0392b}
.op{border-top:1px solid #ddd;padding:.5rem 0}.meta{color:#555;font-size:.9rem}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
ul{list-style:none;padding:0}li{margin:.2rem 0}
</style></head><body>
<h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<p>${escape(document.info.description ?? '')}</p>
<p>OpenAPI ${escape(document.openapi)} document: <a href="${escape(openApiUrl)}">${escape(openApiUrl)}</a>. ${operations.length} operations.</p>
<h2>Operations</h2>
<ul>
${index}
</ul>
<h2>Reference</h2>
${operations.map(({ path, method, op }) => operationHtml(document, path, method, op)).join('\n')}
</body></html>
`;
}
