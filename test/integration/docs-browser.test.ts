import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import { localDeployment, seed, unique } from '../support/api';

/**
 * The API reference as a person sees it: /docs of the local deployment rendered by headless
 * Chromium (Scalar's API reference, served by the API under its Content-Security-Policy). It
 * lists every operation of the OpenAPI document in its navigation, sends no request out of
 * the origin, breaks no CSP rule and throws nothing; "try it" with a bearer token typed in
 * its auth box calls the deployment and shows the answer.
 *
 * Chromium is the Debian package (/usr/bin/chromium, or CHROMIUM_PATH): under CI the test
 * fails without it (.ci/run installs it); elsewhere it is skipped with the reason printed.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) {
  if (process.env.CI)
    throw new Error(`Chromium is missing at ${CHROMIUM} (set CHROMIUM_PATH): the API reference cannot be checked in a browser.`);
  console.warn(
    `Skipping the API reference's browser test: no Chromium at ${CHROMIUM} (install the chromium package, or set CHROMIUM_PATH).`,
  );
}
const describeInBrowser = available ? describe : describe.skip;

const { runtime, db } = localDeployment();

type Json = Record<string, any>;

describeInBrowser('the API reference at /docs, in Chromium', () => {
  const u = unique();
  const orgId = `org_docs_${u}`;
  const orgKey = generateApiKey('org_key');
  const memberEmail = `dora.docs.${u}@example.com`;

  let browser: Browser;
  let page: Page;
  let openApi: Json;
  const requests: string[] = [];
  const problems: string[] = [];
  let loadMs = 0;

  beforeAll(async () => {
    await seed(db, {
      orgs: [{ id: orgId, name: 'Docs Org' }],
      users: [{ id: `usr_docs_${u}`, email: memberEmail, display_name: 'Dora Docs' }],
      memberships: [{ org_id: orgId, user_id: `usr_docs_${u}`, role: 'owner', status: 'active' }],
      api_keys: [{ org_id: orgId, key: orgKey, scopes: ['users:read'] }],
    });
    openApi = (await (await fetch(`${runtime.apiUrl}/api/v1/openapi.json`)).json()) as Json;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    await page.exposeFunction('reportViolation', (text: string) => problems.push(`CSP violation: ${text}`));
    // Runs in the page, before its scripts (a string: this file is not compiled with the DOM's types).
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));",
    });

    const started = Date.now();
    await page.goto(`${runtime.apiUrl}/docs`);
    await page.locator('aside li[data-sidebar-id]').first().waitFor({ timeout: 30_000 });
    loadMs = Date.now() - started;
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('lists every operation of the document in its navigation, by method, path and summary', async () => {
    const sidebar = page.getByRole('complementary', { name: /Sidebar/ });
    // Tags start closed: open each until none is left.
    for (let opened = 0; opened < 50; opened++) {
      const closed = sidebar.locator('button[aria-expanded="false"]');
      if ((await closed.count()) === 0) break;
      await closed.first().click();
    }
    const items = await sidebar.locator('li[data-sidebar-id]').evaluateAll((elements) =>
      elements.map((element) => ({
        id: element.getAttribute('data-sidebar-id') ?? '',
        text: element.querySelector('a')?.textContent?.trim() ?? '',
      })),
    );
    const expected = Object.entries<Json>(openApi.paths).flatMap(([path, item]) =>
      Object.entries<Json>(item).map(([method, op]) => ({ key: `${method.toUpperCase()}${path}`, summary: op.summary as string })),
    );
    const found = expected.filter(({ key, summary }) => items.some((item) => item.id.endsWith(`/${key}`) && item.text.startsWith(summary)));
    console.log(`API reference in Chromium: ${found.length} of ${expected.length} operations in the navigation; rendered in ${loadMs} ms`);
    expect(found.map(({ key }) => key)).toEqual(expected.map(({ key }) => key));
    expect(expected.length).toBeGreaterThan(40);
    // The reference's own routes are not operations.
    expect(items.some((item) => item.id.endsWith('/GET/docs'))).toBe(false);
  });

  it("has no link that opens the document in Scalar's hosted client", async () => {
    expect(await page.locator('a[href*="client.scalar.com"]').count()).toBe(0);
  });

  it('"try it": a bearer token in the auth box, then Send, calls this deployment and shows its 200', async () => {
    const operation = page.locator('[id$="tag/public/GET/api/v1/public/users"]').first();
    await operation.scrollIntoViewIfNeeded();
    await operation
      .getByRole('button', { name: /Test Request/ })
      .first()
      .click();
    const client = page.getByRole('dialog');
    // The auth box's input, by its role: the schemes' descriptions (shown beside it) speak of tokens too.
    await client.getByRole('textbox', { name: 'Bearer Token' }).fill(orgKey);
    const answered = page.waitForResponse((response) => response.url().startsWith(`${runtime.apiUrl}/api/v1/public/users`));
    await client.getByRole('button', { name: /^Send get request/ }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${orgKey}`);
    await client.getByText('200 OK').first().waitFor({ timeout: 10_000 });
    await client.getByText(memberEmail).first().waitFor({ timeout: 10_000 });
  });

  it('sent every request to its own origin, and met no CSP violation, page error or console error', () => {
    const origin = new URL(runtime.apiUrl).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requests.some((url) => url.includes('/docs/scalar-api-reference-'))).toBe(true);
    expect(problems).toEqual([]);
  });
});
