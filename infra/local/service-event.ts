import { randomUUID } from 'node:crypto';

/**
 * An event an AWS service puts on the account's default EventBridge bus, as a rule forwards it
 * to a queue (the body of the SQS message): the envelope fields and the service's `detail`.
 */
export interface ServiceEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

/** The account id the local stand-ins report (AWS's documentation example account). */
export const LOCAL_ACCOUNT_ID = '111122223333';

/** A service event in EventBridge's envelope, with a fresh id and the current time. */
export function serviceEvent(
  source: string,
  detailType: string,
  detail: Record<string, unknown>,
  options: { region: string; now?: Date },
): ServiceEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source,
    account: LOCAL_ACCOUNT_ID,
    time: (options.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: options.region,
    resources: [],
    detail,
  };
}
