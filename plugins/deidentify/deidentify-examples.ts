/** Example request and answer of POST /api/deidentify, shown in the bridge's OpenAPI document. */

/** A short ADT^A01 with a name, identifiers, a birth date, an address and a phone. */
const EXAMPLE_MESSAGE = [
  'MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1',
  'EVN||20250615120000',
  'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||EVERYMAN^ADAM^A||19610615|M|||2222 HOME STREET^^GREENSBORO^NC^27401||(555)555-2004',
  'PV1|1|I|2000^2012^01',
].join('\r');

/** Examples of POST /api/deidentify. */
export const DEIDENTIFY_EXAMPLE = {
  body: { messageContent: EXAMPLE_MESSAGE, standard: 'hl7' },
};
