import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import type { EventConsumerName } from '../../shared/events/event-functions';
import type { ServiceEvent } from './service-event';

/**
 * The local event pipeline's files in a data directory, which let the CLI watch and steer it
 * without talking to its process:
 * - events.jsonl: every event put on the "bus", one JSON line each (`cli events tail`);
 * - dead-letters/<id>.json: undeliverable messages (`cli dlq list`);
 * - redrive/<id>.json: messages the CLI sends back (`cli dlq redrive`), picked up by the pipeline;
 * - stream-position.json: how far each stream shard was processed, so a restart resumes.
 */
export function pipelineFiles(dataDir: string) {
  return {
    events: path.join(dataDir, 'events.jsonl'),
    deadLetters: path.join(dataDir, 'dead-letters'),
    redrive: path.join(dataDir, 'redrive'),
    streamPosition: path.join(dataDir, 'stream-position.json'),
  };
}

/** An undeliverable message, as `cli dlq list` shows it. */
export interface DeadLetter {
  id: string;
  /** A consumer (EVENT_CONSUMERS) or 'processor' (a stream record the processor could not turn into events). */
  consumer: EventConsumerName | 'processor';
  attempts: number;
  failed_at: string;
  event?: DomainEvent;
  /** An AWS service event (not a domain event) the consumer could not handle. */
  service_event?: ServiceEvent;
  record?: DynamoDBRecord;
}

/** Sets a message aside in the dead-letter store. */
export function writeDeadLetter(dir: string, letter: DeadLetter): void {
  writeFileSync(path.join(dir, `${letter.id}.json`), JSON.stringify(letter, null, 2));
}

/** Undeliverable messages, oldest first. */
export function listDeadLetters(dataDir: string): DeadLetter[] {
  const dir = pipelineFiles(dataDir).deadLetters;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as DeadLetter)
    .sort((a, b) => a.failed_at.localeCompare(b.failed_at));
}

/** Sends dead letters back to their consumer (all, or those of one consumer): the running pipeline picks them up. */
export function redriveDeadLetters(dataDir: string, consumer?: string): DeadLetter[] {
  const files = pipelineFiles(dataDir);
  mkdirSync(files.redrive, { recursive: true });
  const moved = listDeadLetters(dataDir).filter((letter) => letter.consumer !== 'processor' && (!consumer || letter.consumer === consumer));
  for (const letter of moved) renameSync(path.join(files.deadLetters, `${letter.id}.json`), path.join(files.redrive, `${letter.id}.json`));
  return moved;
}

/** The messages the CLI sent back, taken out of the redrive directory. */
export function takeRedriven(dir: string): DeadLetter[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const letter = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as DeadLetter;
      rmSync(path.join(dir, file));
      return letter;
    });
}
