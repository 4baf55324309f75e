import path from 'node:path';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * Packages some functions carry beside their bundle (node_modules/ of the asset) rather than in it:
 * the PII redactor's wink-nlp English model, which the transcription finisher and the sweeper
 * (which finishes jobs too) require only when a transcript is redacted of names. Bundled, it would
 * make their code 4.5 MB to parse at every cold start; beside it, it costs nothing until used.
 */
export const PACKAGES_BESIDE_BUNDLE: Readonly<Record<string, readonly string[]>> = {
  'functions/events/finish-transcription-job': ['wink-nlp', 'wink-eng-lite-web-model'],
  'functions/events/sweep-transcriptions': ['wink-nlp', 'wink-eng-lite-web-model'],
};

/** Copies a function's PACKAGES_BESIDE_BUNDLE from the project's node_modules into its asset (no install, no network). */
export function packagesBesideBundle(handlerModule: string, repoRoot: string): ICommandHooks | undefined {
  const packages = PACKAGES_BESIDE_BUNDLE[handlerModule];
  if (!packages?.length) return undefined;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) => [
      `mkdir -p "${path.join(outputDir, 'node_modules')}"`,
      ...packages.map((name) => `cp -R "${path.join(repoRoot, 'node_modules', name)}" "${path.join(outputDir, 'node_modules')}/"`),
    ],
  };
}
