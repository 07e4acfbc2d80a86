/**
 * Example requests and answers of the message routes, shown in the monitor base's OpenAPI document. The same Epic
 * ADT feed as the other monitor examples: one admission whose patient name is missing.
 */

const INTERFACE_ID = '5f0c2a7e-3b1d-4c8e-9a61-2d4f7b9e1c30';
const RAW = [
  'MSH|^~\\&|EPIC|MAIN_HOSP|RECV|RFAC|20260115091204||ADT^A01^ADT_A01|MSG000118|P|2.5.1',
  'EVN|A01|20260115091204',
  'PID|1||MRN4471920^^^MAIN_HOSP^MR||||19800101|F|||||||||ACC88120',
  'PV1|1|I|4W^412^1',
].join('\r');
/** PID.5 is empty: its place is just after the separator that opens it. */
const PID_5_AT = RAW.indexOf('^MR||') + '^MR||'.length;

const FINDING = {
  severity: 'error',
  code: 'REQUIRED_FIELD_MISSING',
  message: 'PID.5 (Patient Name) is required in ADT^A01 v2.5.1 but is empty.',
  path: 'PID.5',
};

const SUMMARY = {
  id: '4182.0',
  interfaceId: INTERFACE_ID,
  interfaceName: 'ADT inbound (Epic)',
  standard: 'hl7',
  status: 'failed',
  messageType: 'ADT^A01',
  controlId: 'MSG000118',
  patientId: 'MRN4471920',
  accountNumber: 'ACC88120',
  receivedAt: '2026-01-15T09:12:05.318Z',
  messageTime: '2026-01-15T09:12:04.000Z',
  fileName: 'adt-20260115-091204.hl7',
  firstFinding: FINDING,
  errorCount: 1,
  warningCount: 0,
};

/** Examples of the message routes, by route. */
export const MESSAGE_EXAMPLES = {
  listMessages: {
    query: { interfaceId: INTERFACE_ID, status: 'failed', limit: 50 },
    response: { items: [SUMMARY], next: 'MjAyNi0wMS0xNVQwOToxMjowNS4zMThafDQxODJ8MA' },
  },
  getMessage: {
    params: { id: SUMMARY.id },
    response: {
      message: {
        ...SUMMARY,
        triggerEvent: 'A01',
        version: '2.5.1',
        sendingApplication: 'EPIC',
        sendingFacility: 'MAIN_HOSP',
        receivingApplication: 'RECV',
        receivingFacility: 'RFAC',
        sequenceNumber: null,
        acknowledgedControlId: null,
        patientIds: [{ id: 'MRN4471920', assigningAuthority: 'MAIN_HOSP' }],
        visitNumber: null,
        segmentIds: ['MSH', 'EVN', 'PID', 'PV1'],
        latencyMs: 1318,
        latencyClass: 'ok',
        contentDigest: '9b2f6c1e0d8a4f3b7c5e2a1d9f8b6c4e3a2d1f0e9c8b7a6f5e4d3c2b1a0f9e8d',
      },
      raw: RAW,
      rawState: 'retained',
      rawNote: null,
      findings: [
        {
          ...FINDING,
          position: {
            segmentIndex: 2,
            segment: 'PID',
            field: 5,
            repetition: null,
            component: null,
            subcomponent: null,
            element: null,
            start: PID_5_AT,
            end: PID_5_AT,
            exact: true,
          },
        },
      ],
      file: {
        path: '/var/spool/hl7/epic-adt/adt-20260115-091204.hl7',
        name: 'adt-20260115-091204.hl7',
        size: 214,
        modifiedAt: '2026-01-15T09:12:04.902Z',
        indexInFile: 0,
        messagesInFile: 1,
      },
    },
  },
};
