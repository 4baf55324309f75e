import type { EventConsumerName } from '../shared/events/event-functions';

/**
 * The names functions and event consumers were first deployed under, where the code's own names
 * have changed since. Construct ids (and so logical ids), role descriptions, rule descriptions and
 * dashboard labels derive from these names, never from where the code lives: renaming or moving a
 * handler must not replace a deployed function, its queue or its alarms. A renamed or moved
 * handler or consumer adds its old name here; test/infra/template-identity.test.ts fails until it does.
 */

/** Handler module → the function's deployed name, where it is not derived (functionNameOf). */
export const DEPLOYED_FUNCTION_NAMES: Readonly<Record<string, string>> = {
  // The root stack's route: not <stack>/<file>.
  'functions/health/health': 'health',
  'functions/docs/get-open-api-document': 'docs/get-openapi-document',
  // The upload completion (an S3 event handler) was first deployed among the recordings' routes.
  'functions/events/complete-upload': 'recordings/complete-upload',
  'functions/events/run-summary': 'events/write-summary',
};

/** Event consumer → the name its queue, dead-letter queue, rule and alarm were deployed under, where it differs. */
export const DEPLOYED_CONSUMER_NAMES: Readonly<Partial<Record<EventConsumerName, string>>> = {
  // The catalog's names before each consumer was named after its use case.
  sendInvitationEmail: 'invitationMail',
  cleanUpRecording: 'objectCleanup',
  recordAuditEntry: 'auditLog',
  expireTrashedRecording: 'trashRetention',
  revokeRemovedMemberKeys: 'removedMemberKeys',
  fanOutWebhookDeliveries: 'webhookFanOut',
  dispatchWebhookDelivery: 'webhookDispatch',
  queueTranscriptionOnUpload: 'autoTranscription',
  startTranscriptionJob: 'transcriptionStart',
  finishTranscriptionJob: 'transcriptionFinish',
  queueSummaryOnTranscription: 'autoSummary',
  runSummary: 'summaryRun',
  runTranslation: 'translation',
};

/**
 * A function's deployed name: `<stack>/<file>` for a route's handler (its route stack's area and
 * its file name), the module's path under functions/ for any other (events/run-translation,
 * authorizer), unless DEPLOYED_FUNCTION_NAMES pins another.
 */
export function functionNameOf(handlerModule: string, routeStack?: string): string {
  const pinned = DEPLOYED_FUNCTION_NAMES[handlerModule];
  if (pinned) return pinned;
  const path = handlerModule.replace(/^functions\//, '');
  return routeStack ? `${routeStack}/${path.split('/').at(-1)!}` : path;
}

/** The area a deployed name belongs to: its first segment (users/list-users → users; authorizer → authorizer). */
export const areaOfName = (name: string): string => name.split('/')[0];

/** The name an event consumer's queue, dead-letter queue, rule and alarm were deployed under. */
export const consumerDeployedName = (consumer: EventConsumerName): string => DEPLOYED_CONSUMER_NAMES[consumer] ?? consumer;
