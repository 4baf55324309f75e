/**
 * Where the AWS services the stack calls are offered, for the synth-time checks of a stack whose
 * Region is known (docs/deploy.md, "Regions"). The lists are the Regions of each service's
 * endpoints as AWS publishes them (the general reference's endpoint pages and the SDKs' endpoint
 * data); a Region missing here that AWS adds later only needs adding here.
 */

/** Amazon Transcribe batch jobs (StartTranscriptionJob), every partition. */
const TRANSCRIBE_REGIONS: ReadonlySet<string> = new Set([
  'af-south-1',
  'ap-east-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ca-central-1',
  'eu-central-1',
  'eu-central-2',
  'eu-north-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'me-south-1',
  'sa-east-1',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'us-gov-east-1',
  'us-gov-west-1',
  'cn-north-1',
  'cn-northwest-1',
]);

/** Amazon Translate (TranslateText), every partition. */
const TRANSLATE_REGIONS: ReadonlySet<string> = new Set([
  'ap-east-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ca-central-1',
  'eu-central-1',
  'eu-north-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'us-gov-west-1',
]);

/** Amazon Bedrock's runtime (Converse), every partition but the isolated ones. */
const BEDROCK_REGIONS: ReadonlySet<string> = new Set([
  'af-south-1',
  'ap-east-2',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-south-1',
  'ap-south-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-southeast-5',
  'ap-southeast-6',
  'ap-southeast-7',
  'ca-central-1',
  'ca-west-1',
  'eu-central-1',
  'eu-central-2',
  'eu-north-1',
  'eu-south-1',
  'eu-south-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'il-central-1',
  'me-central-1',
  'me-south-1',
  'mx-central-1',
  'sa-east-1',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'us-gov-east-1',
  'us-gov-west-1',
]);

/** The Regions where every service the pipeline calls is offered (which models Bedrock has there is the model map's check). */
export const PIPELINE_REGIONS: readonly string[] = [...TRANSCRIBE_REGIONS].filter(
  (region) => TRANSLATE_REGIONS.has(region) && BEDROCK_REGIONS.has(region),
);

/** Why the stack cannot run in a Region: the services the pipeline needs that it lacks (none: it can). */
export function missingServicesIn(region: string): string[] {
  return [
    ...(TRANSCRIBE_REGIONS.has(region) ? [] : ['Amazon Transcribe (transcripts)']),
    ...(TRANSLATE_REGIONS.has(region) ? [] : ['Amazon Translate (translations)']),
    ...(BEDROCK_REGIONS.has(region) ? [] : ['Amazon Bedrock (summaries)']),
  ];
}

/** Fails the synth of a stack in a Region that lacks a service the pipeline calls, naming them. */
export function assertPipelineServicesIn(region: string): void {
  const missing = missingServicesIn(region);
  if (missing.length) {
    throw new Error(
      `Voice Org API cannot be deployed to ${region}: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not offered there. ` +
        `Choose one of ${PIPELINE_REGIONS.join(', ')} (docs/deploy.md, "Regions"): set AWS_REGION or your profile's region for cdk synth and cdk deploy.`,
    );
  }
}
