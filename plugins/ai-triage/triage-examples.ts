/** Example requests of the AI triage routes, shown in the bridge's OpenAPI document. */

const FAILED_ADT = [
  'MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1',
  'EVN||20250615120000',
  'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||||19610615|M',
  'PV1|1|I|2000^2012^01',
].join('\r');

/** Examples keyed by route. */
export const TRIAGE_EXAMPLES = {
  triage: {
    body: { messageContent: FAILED_ADT, interfaceContext: 'ADT feed from the registration system; mapping changed last week' },
  },
  patterns: { body: { interfaceId: 'b3c1f0a2-0000-4000-8000-000000000001', sinceHours: 24 } },
  summary: { body: { interfaceId: 'b3c1f0a2-0000-4000-8000-000000000001', sinceHours: 24 } },
  upgradeCheck: { body: { interfaceId: 'b3c1f0a2-0000-4000-8000-000000000001', sinceHours: 24 } },
};
