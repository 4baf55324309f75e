import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { openApiDocument } from '../../shared/openapi/document';
import { REFERENCE_FILES, SCALAR_BUNDLE_SOURCE, type ReferenceFile } from '../../shared/openapi/reference-files';
import { ROUTES } from '../../shared/routes/manifest';

/** The OpenAPI document generated once per synth, in a temporary file removed when the process exits. */
let documentFile: string | undefined;
function generatedDocument(): string {
  if (documentFile) return documentFile;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-reference-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  documentFile = path.join(dir, REFERENCE_FILES.openApiDocument);
  writeFileSync(documentFile, JSON.stringify(openApiDocument()));
  return documentFile;
}

/**
 * The files the API reference's functions carry beside their bundle (shared/openapi/reference-files.ts),
 * by handler module, and the file each is copied from at synth: Scalar's browser bundle from
 * the installed package, the OpenAPI document generated from the manifest and the schemas.
 */
const FILES_BY_HANDLER: Record<string, Partial<Record<ReferenceFile, () => string>>> = {
  [ROUTES.getDocsAsset.handler]: { [REFERENCE_FILES.scalarBundle]: () => SCALAR_BUNDLE_SOURCE },
  [ROUTES.getOpenApiDocument.handler]: { [REFERENCE_FILES.openApiDocument]: generatedDocument },
};

/** The bundling hooks that copy a function's reference files into its asset, after esbuild; none for other functions. */
export function referenceFileHooks(handlerModule: string): ICommandHooks | undefined {
  const files = FILES_BY_HANDLER[handlerModule];
  if (!files) return undefined;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) =>
      Object.entries(files).map(([name, source]) => `cp "${source()}" "${path.join(outputDir, name)}"`),
  };
}

/** Handler modules that carry reference files (for the infra tests). */
export const FUNCTIONS_WITH_REFERENCE_FILES = Object.keys(FILES_BY_HANDLER);
