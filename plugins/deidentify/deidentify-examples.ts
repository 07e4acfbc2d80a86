/** Example request and answer of POST /api/deidentify, shown in the bridge's OpenAPI document. */

/** A short ADT^A01 with a name, identifiers, a birth date, an address and a phone. */
const EXAMPLE_MESSAGE = [
  'MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1',
  'EVN||20250615120000',
  'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||EVERYMAN^ADAM^A||19610615|M|||2222 HOME STREET^^GREENSBORO^NC^27401||(555)555-2004',
  'PV1|1|I|2000^2012^01',
].join('\r');

/** Examples of POST /api/deidentify; the answer is the one a service with a known key gives for the body. */
export const DEIDENTIFY_EXAMPLE = {
  body: { messageContent: EXAMPLE_MESSAGE, standard: 'hl7' },
  response: {
    "standard": "hl7",
    "messageContent": "MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1\rEVN||20260209120000\rPID|1||IKANV0389^^^GOOD HEALTH HOSPITAL^MR||COLLIER^OSVALDO^T||19620209|M|||4099 FRANKLIN STREET^^APOPKA^NC^27400||(377)982-2730\rPV1|1|I|2000^2012^01",
    "report": {
      "replacements": [
        {
          "path": "EVN.2.1",
          "kind": "date",
          "count": 1
        },
        {
          "path": "PID.11.1",
          "kind": "address",
          "count": 1
        },
        {
          "path": "PID.11.3",
          "kind": "city",
          "count": 1
        },
        {
          "path": "PID.11.5",
          "kind": "postalCode",
          "count": 1
        },
        {
          "path": "PID.13.1",
          "kind": "phone",
          "count": 1
        },
        {
          "path": "PID.3.1",
          "kind": "medicalRecordNumber",
          "count": 1
        },
        {
          "path": "PID.5.1",
          "kind": "name",
          "count": 1
        },
        {
          "path": "PID.5.2",
          "kind": "name",
          "count": 1
        },
        {
          "path": "PID.5.3",
          "kind": "name",
          "count": 1
        },
        {
          "path": "PID.7.1",
          "kind": "date",
          "count": 1
        }
      ],
      "byKind": {
        "date": 2,
        "address": 1,
        "city": 1,
        "postalCode": 1,
        "phone": 1,
        "medicalRecordNumber": 1,
        "name": 3
      },
      "total": 10,
      "notes": [],
      "redacted": []
    }
  },
};
