import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The process's structured JSON logger. Log fields are chosen by callers; never pass
 * secrets, tokens, profile text or preference contents.
 */
export const logger = new Logger({ serviceName: 'voice-org-api' });
