import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundledFunctions } from './assembly';
import { EVENTS_DIR, eventFileText, sampleEvents } from './function-events';
import { placeholderSetup } from './sample-setup';

/**
 * Writes one sample event per Lambda function to events/<function>.json, generated from the
 * route manifest (infra/sam/function-events.ts), for `sam local invoke -e`:
 *
 *   npx tsx infra/sam/generate-events.ts          # write (and delete events of removed functions)
 *   npx tsx infra/sam/generate-events.ts --check  # exit 1 when a file is missing, stale or extra
 *
 * It prints them in the order they are replayed on a fresh `npm start` demo (docs/deploy.md), and
 * with a synthesized template in cdk.out the `sam local invoke` command of each function.
 */
const repoRoot = path.resolve(__dirname, '../..');

function main(): void {
  const check = process.argv.includes('--check');
  const dir = path.join(repoRoot, EVENTS_DIR);
  const events = sampleEvents(placeholderSetup());
  const wanted = new Map(events.map((e) => [e.file, eventFileText(e.event)]));
  const present = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.json')) : [];
  const stale = [...wanted]
    .filter(([file, text]) => !existsSync(path.join(dir, file)) || readFileSync(path.join(dir, file), 'utf8') !== text)
    .map(([file]) => file);
  const extra = present.filter((file) => !wanted.has(file));

  if (check) {
    if (stale.length || extra.length) {
      console.error(
        `${EVENTS_DIR}/ is out of date (run npx tsx infra/sam/generate-events.ts): ${[...stale, ...extra.map((f) => `${f} (no such function)`)].join(', ')}`,
      );
      process.exit(1);
    }
    console.log(`${EVENTS_DIR}/: ${wanted.size} sample events, up to date`);
    return;
  }

  mkdirSync(dir, { recursive: true });
  for (const file of stale) writeFileSync(path.join(dir, file), wanted.get(file)!);
  for (const file of extra) rmSync(path.join(dir, file));
  console.log(`${EVENTS_DIR}/: ${wanted.size} sample events (${stale.length} written, ${extra.length} removed)`);

  const outdir = path.join(repoRoot, 'cdk.out');
  const template = existsSync(outdir) ? readdirSync(outdir).find((file) => /^VoiceOrgApi-.+\.template\.json$/.test(file)) : undefined;
  if (!template) {
    // The order they answer as expected in on a fresh demo: later events change what earlier ones read.
    console.log(`\nIn this order on a fresh \`npm start\` demo: ${events.map((event) => event.file).join(', ')}`);
    console.log('Run `npx cdk synth` to list the `sam local invoke` command of each function, in that order.');
    return;
  }
  const stackName = template.replace(/\.template\.json$/, '');
  const byHandler = new Map(bundledFunctions(outdir, stackName).map((fn) => [fn.handlerModule, fn]));
  console.log(`\nsam local invoke commands for cdk.out/${template}, in the order they answer as expected on a fresh \`npm start\` demo:`);
  for (const event of events) {
    const fn = byHandler.get(event.handler);
    console.log(
      fn
        ? `  sam local invoke ${fn.samFunctionId} -t cdk.out/${template} -e ${EVENTS_DIR}/${event.file}`
        : `  (${event.handler} has no function in cdk.out/${template}: synthesize again)`,
    );
  }
}

main();
