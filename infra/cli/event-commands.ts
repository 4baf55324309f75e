import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import * as v from 'valibot';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { parseInput } from '../../shared/schemas/validation';
import { Id } from '../../shared/schemas/common';
import { EVENT_CONSUMERS } from '../../shared/events/event-functions';
import { listDeadLetters, pipelineFiles, redriveDeadLetters } from '../local/dead-letter-store';
import { CliError } from './cli-error';
import type { CommandSpec } from './command-line';
import type { CliTarget } from './target';

const localOnly = (target: CliTarget, what: string) => {
  if (!target.local)
    throw new CliError(
      'LOCAL_ONLY',
      `${what} reads the local event pipeline; in AWS, use the bus's archive, CloudWatch and the SQS dead-letter queues (docs/deploy.md).`,
    );
  return target.local;
};

const TailFlags = v.object({
  org: v.optional(Id),
  type: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z_]+(\.[a-z_]*)?$/, 'must be an event type such as recording.created, or a prefix such as recording.')),
  ),
  from: v.optional(v.picklist(['now', 'start'], 'must be now or start'), 'now'),
  limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d*$/, 'must be a positive integer'), v.transform(Number))),
});

/** Whether an event matches `--type`: the exact type, or a prefix ending with a dot. */
const typeMatches = (type: string, filter?: string) => !filter || (filter.endsWith('.') ? type.startsWith(filter) : type === filter);

/** The local event pipeline's CLI commands: watching the bus and handling dead letters. */
export const EVENT_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'events tail': {
    summary: 'local only: print domain events as they happen (JSON lines)',
    notes: 'Runs until Ctrl-C, or until --limit events were printed. --from start prints the events recorded so far first.',
    flags: {
      org: { placeholder: 'O', description: 'only events of this organization' },
      type: { placeholder: 'T', description: 'only this event type, or a prefix such as recording.' },
      from: { placeholder: 'now|start', description: 'where to begin (default: now)' },
      limit: { placeholder: 'N', description: 'stop after N events' },
    },
    run: async (rawFlags, target) => {
      const { dataDir } = localOnly(target, 'events tail');
      const flags = parseInput(TailFlags, rawFlags);
      const file = pipelineFiles(dataDir).events;
      let position = flags.from === 'start' || !existsSync(file) ? 0 : statSync(file).size;
      let printed = 0;
      let partial = '';
      let stopped = false;
      process.once('SIGINT', () => (stopped = true));
      while (!stopped && (flags.limit === undefined || printed < flags.limit)) {
        const size = existsSync(file) ? statSync(file).size : 0;
        if (size > position) {
          const chunk = Buffer.alloc(size - position);
          const fd = openSync(file, 'r');
          readSync(fd, chunk, 0, chunk.length, position);
          closeSync(fd);
          position = size;
          const lines = (partial + chunk.toString('utf8')).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) {
            const event = JSON.parse(line) as DomainEvent;
            if ((flags.org && event.org_id !== flags.org) || !typeMatches(event.type, flags.type)) continue;
            process.stdout.write(`${line}\n`);
            if (flags.limit !== undefined && ++printed >= flags.limit) break;
          }
        } else {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      return undefined;
    },
  },
  'dlq list': {
    summary: 'local only: messages the event pipeline could not deliver after their last attempt',
    flags: {
      consumer: { placeholder: 'C', description: `only this consumer (${[...Object.keys(EVENT_CONSUMERS), 'processor'].join(', ')})` },
    },
    run: (flags, target) => {
      const { dataDir } = localOnly(target, 'dlq list');
      const consumer = parseInput(
        v.object({ consumer: v.optional(v.picklist([...Object.keys(EVENT_CONSUMERS), 'processor'])) }),
        flags,
      ).consumer;
      return listDeadLetters(dataDir).filter((letter) => !consumer || letter.consumer === consumer);
    },
  },
  'dlq redrive': {
    summary: 'local only: send dead letters back to their consumer (the running deployment delivers them again)',
    notes: 'Stream records the processor set aside are not redriven: fix the item, and its next change is processed.',
    flags: { consumer: { placeholder: 'C', description: `only this consumer (${Object.keys(EVENT_CONSUMERS).join(', ')})` } },
    run: (flags, target) => {
      const { dataDir } = localOnly(target, 'dlq redrive');
      const consumer = parseInput(v.object({ consumer: v.optional(v.picklist(Object.keys(EVENT_CONSUMERS))) }), flags).consumer;
      return {
        redriven: redriveDeadLetters(dataDir, consumer).map((letter) => ({
          id: letter.id,
          consumer: letter.consumer,
          event_id: letter.event?.id ?? null,
        })),
      };
    },
  },
};
