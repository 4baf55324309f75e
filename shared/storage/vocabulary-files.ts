import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { bucketClient } from './bucket-client';
import { config } from '../config';

/**
 * The organizations' vocabulary files in the recordings bucket (`vocabularies/<org>/<version>.tsv`):
 * Transcribe's table format, read by Transcribe when the vocabulary is created or updated, then
 * removed. Only the vocabulary consumer writes here.
 */
export interface VocabularyFiles {
  /** Writes a version's file; answers the s3:// URI Transcribe reads it from. */
  write(orgId: string, version: number, table: string): Promise<string>;
  remove(orgId: string, version: number): Promise<void>;
}

export const vocabularyFileKey = (orgId: string, version: number) => `vocabularies/${orgId}/${version}.tsv`;

export function createVocabularyFiles(options: { bucket: string; region: string; endpoint?: string }): VocabularyFiles {
  const Bucket = options.bucket;
  const client = bucketClient(options);
  return {
    write: async (orgId, version, table) => {
      const Key = vocabularyFileKey(orgId, version);
      await client.send(new PutObjectCommand({ Bucket, Key, Body: table, ContentType: 'text/tab-separated-values; charset=utf-8' }));
      return `s3://${Bucket}/${Key}`;
    },
    remove: async (orgId, version) => {
      await client.send(new DeleteObjectCommand({ Bucket, Key: vocabularyFileKey(orgId, version) }));
    },
  };
}

let shared: VocabularyFiles | undefined;

/** The function's vocabulary files, from config, created once per module. */
export function vocabularyFiles(): VocabularyFiles {
  if (!shared) {
    const { bucket, region } = config();
    if (!bucket) throw new Error('Invalid configuration: BUCKET_NAME is required');
    shared = createVocabularyFiles({ bucket: bucket.name, endpoint: bucket.endpoint, region });
  }
  return shared;
}
