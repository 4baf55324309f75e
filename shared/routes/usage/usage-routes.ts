import { getUsageDocs, getUsageRoute } from './get-usage';

/** The organization's metered usage (transcription minutes). In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const USAGE_ROUTES = [{ route: getUsageRoute, docs: getUsageDocs }] as const;
