/**
 * Example requests and answers of the tracing routes, shown in the monitor base's OpenAPI document. They follow one
 * admission at St Mary's: ADT^A01 on the ADT feed, the order on the orders feed, the result missing from the lab feed.
 */

const ADT = { id: '5f0c2a7e-3b1d-4c8e-9a61-2d4f7b9e1c30', name: 'ADT inbound (Epic)' };
const ORDERS = { id: '9b7e4c12-6a3f-4d2b-8e51-0c9a7f3b2d14', name: 'Orders outbound' };

const A01 = {
  messageId: 'b3c1f0d2-7e4a-4b9c-8d21-5a6f0e9c3b71',
  interface: ADT.name,
  interfaceId: ADT.id,
  messageType: 'ADT^A01',
  timestamp: '2026-03-02T08:15:00.000Z',
  receivedAt: '2026-03-02T08:15:02.412Z',
  messageTime: '2026-03-02T08:15:00.000Z',
  status: 'valid',
  controlId: 'ADM000184',
  sequenceNumber: 184,
  sendingApplication: 'EPIC',
  sendingFacility: 'STMARYS',
  patientIds: [{ id: 'MRN4471902', assigningAuthority: 'STMARYS' }],
  accountNumber: 'ACC88120',
  errorCount: 0,
  warningCount: 1,
};

const O01 = {
  ...A01,
  messageId: 'e8a4d7c0-2b9f-4c61-a3e5-7d0b1f6c9a28',
  interface: ORDERS.name,
  interfaceId: ORDERS.id,
  messageType: 'ORM^O01',
  timestamp: '2026-03-02T08:40:00.000Z',
  receivedAt: '2026-03-02T08:40:01.077Z',
  messageTime: '2026-03-02T08:40:00.000Z',
  controlId: 'ORD000977',
  sequenceNumber: 977,
  warningCount: 0,
};

const seen = (e: typeof A01) => ({
  messageId: e.messageId,
  interface: e.interface,
  messageType: e.messageType,
  timestamp: e.timestamp,
  controlId: e.controlId,
  sequenceNumber: e.sequenceNumber,
});

const MISSING_RESULT = {
  kind: 'missing',
  sequence: 'ADT^A01>ORM^O01<1h>ORU^R01<4h',
  sequenceName: 'admission',
  stepIndex: 2,
  expected: 'ORU^R01 after ORM^O01',
  seen: [seen(O01)],
  patientId: 'MRN4471902',
  interfaceId: null,
  window: { from: '2026-03-02T08:40:00.000Z', to: '2026-03-02T12:40:00.000Z' },
  amount: null,
};

const MSH13_GAP = {
  kind: 'sequence-number',
  sequence: null,
  sequenceName: null,
  stepIndex: null,
  expected: 'sequence numbers 185 to 186 from EPIC/STMARYS',
  seen: [seen(A01), { ...seen(A01), messageId: 'f1e2d3c4-b5a6-4978-8899-aabbccddeeff', controlId: 'ADM000187', sequenceNumber: 187, timestamp: '2026-03-02T08:31:00.000Z' }],
  patientId: 'MRN4471902',
  interfaceId: ADT.id,
  window: { from: '2026-03-02T08:15:02.412Z', to: '2026-03-02T08:31:01.950Z' },
  amount: 2,
};

const DEFINED = { name: 'admission', sequence: 'ADT^A01>ORM^O01<1h>ORU^R01<4h', alert: true, source: 'api', createdAt: '2026-03-01T09:00:00.000Z' };

const SUMMARY = { count: 412, minMs: 38, p50Ms: 212, p95Ms: 905, p99Ms: 1840, maxMs: 2210 };

/** Examples of every tracing route, by route. */
export const TRACING_EXAMPLES = {
  trace: {
    query: { patient_id: 'MRN4471902', since: '2026-03-01T00:00:00Z', limit: 100 },
    response: {
      patientId: 'MRN4471902',
      assigningAuthorities: ['STMARYS'],
      events: [A01, O01],
      totalSpanMs: 1_500_000,
      gaps: [MISSING_RESULT],
      truncated: false,
    },
  },
  traceById: {
    params: { traceId: 'MRN4471902' },
    query: { assigning_authority: 'STMARYS' },
    response: {
      patientId: 'MRN4471902',
      assigningAuthorities: ['STMARYS'],
      events: [A01, O01],
      totalSpanMs: 1_500_000,
      gaps: [MISSING_RESULT],
      truncated: false,
    },
  },
  gaps: {
    query: { interface_id: ADT.id, since: '2026-03-02T00:00:00Z' },
    response: {
      since: '2026-03-02T00:00:00.000Z',
      sequences: [DEFINED.sequence],
      gaps: [MSH13_GAP, MISSING_RESULT],
      counts: { missing: 1, late: 0, 'out-of-order': 0, 'sequence-number': 1, 'duplicate-control-id': 0 },
      resends: 3,
      contentUnknown: 0,
      messagesRead: 1822,
      truncated: false,
    },
  },
  latency: {
    query: { from_interface: ADT.id, to_interface: ORDERS.id, message_type: 'ADT^A01', since: '2026-03-02T00:00:00Z' },
    response: {
      fromInterface: ADT.id,
      toInterface: ORDERS.id,
      messageType: 'ADT^A01',
      since: '2026-03-02T00:00:00.000Z',
      until: '2026-03-03T00:00:00.000Z',
      matchWindowMs: 300_000,
      ...SUMMARY,
      unmatched: { source: 2, destination: 0 },
      pairedBy: { controlId: 398, ack: 0, patientAndTime: 14 },
      series: [{ hour: '2026-03-02T08:00:00.000Z', ...SUMMARY }],
      truncated: false,
    },
  },
  listSequences: {
    response: {
      defined: [DEFINED],
      observed: [
        { sequence: 'ADT^A01>ORM^O01>ORU^R01>ADT^A03', patients: 118 },
        { sequence: 'ADT^A04>ADT^A08', patients: 41 },
      ],
      observedWindow: { since: '2026-03-01T09:00:00.000Z', messagesRead: 20_412, truncated: false },
    },
  },
  addSequence: {
    body: { name: 'admission', sequence: 'ADT^A01>ORM^O01<1h>ORU^R01<4h', alert: true },
    response: DEFINED,
  },
  removeSequence: {
    params: { name: 'admission' },
    response: { name: 'admission', removed: true },
  },
};
