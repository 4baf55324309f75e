/**
 * The search context keys (docs/search.md): `search` (opensearch or off; absent: off),
 * `searchEmbeddings` (titan or off; absent: titan) and `searchAdminPrincipals` (IAM ARNs, comma-separated).
 */
export function searchContext(text: (name: 'search' | 'searchEmbeddings' | 'searchAdminPrincipals') => string | undefined): {
  search?: 'opensearch' | 'off';
  searchEmbeddings?: 'titan' | 'off';
  searchAdminPrincipals?: string[];
} {
  const choice = <T extends string>(name: 'search' | 'searchEmbeddings', allowed: readonly T[]): T | undefined => {
    const value = text(name);
    if (value !== undefined && !allowed.includes(value as T))
      throw new Error(`Context ${name} must be ${allowed.join(' or ')}, not ${JSON.stringify(value)}.`);
    return value as T | undefined;
  };
  const searchAdminPrincipals = text('searchAdminPrincipals')
    ?.split(',')
    .map((arn) => arn.trim());
  if (searchAdminPrincipals?.some((arn) => !/^arn:aws[a-z-]*:iam::\d{12}:(role|user)\/\S+$/.test(arn)))
    throw new Error('Context searchAdminPrincipals must be IAM role or user ARNs separated by commas.');
  return {
    search: choice('search', ['opensearch', 'off'] as const),
    searchEmbeddings: choice('searchEmbeddings', ['titan', 'off'] as const),
    searchAdminPrincipals,
  };
}
