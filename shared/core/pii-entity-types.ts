/**
 * The PII entity types, named as Amazon Transcribe's ContentRedaction.PiiEntityTypes names them,
 * so one list of types drives both Transcribe's redaction and ours (the local redactor).
 */
export const PII_ENTITY_TYPES = [
  'BANK_ACCOUNT_NUMBER',
  'BANK_ROUTING',
  'CREDIT_DEBIT_NUMBER',
  'CREDIT_DEBIT_CVV',
  'CREDIT_DEBIT_EXPIRY',
  'PIN',
  'EMAIL',
  'ADDRESS',
  'NAME',
  'PHONE',
  'SSN',
] as const;

export type PiiEntityType = (typeof PII_ENTITY_TYPES)[number];

/** The types asked for, with ALL standing for every type; without duplicates, in PII_ENTITY_TYPES order. */
export function expandEntityTypes(types: readonly (PiiEntityType | 'ALL')[]): PiiEntityType[] {
  if (types.includes('ALL')) return [...PII_ENTITY_TYPES];
  return PII_ENTITY_TYPES.filter((type) => types.includes(type));
}
