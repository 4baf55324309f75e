import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './metric-names';

/**
 * The process's structured JSON logger. Log fields are chosen by callers; never pass
 * secrets, tokens, profile text or preference contents.
 */
export const logger = new Logger({ serviceName: SERVICE_NAME });
