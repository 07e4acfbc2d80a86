/** Example requests and answers of the AI triage routes, shown in the bridge's OpenAPI document. */
import { CONFIDENCE_METHOD } from './interfaces/interface-analysis.ts';

const FAILED_ADT = [
  'MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1',
  'EVN||20250615120000',
  'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||||19610615|M',
  'PV1|1|I|2000^2012^01',
].join('\r');

/** Examples keyed by route (the interface answers are those of a feed like the one the tests build). */
export const TRIAGE_EXAMPLES = {
  triage: {
    body: { messageContent: FAILED_ADT, interfaceContext: 'ADT feed from the registration system; mapping changed last week' },
    response: {
      "rootCause": "The sender stopped sending the patient name (PID-5), typically after a change to its outbound mapping.",
      "explanation": "PID-5 is required in every version. A feed that sent names before and now sends an empty PID-5 almost always had its interface mapping changed (a field moved, a translation table emptied) rather than lost the data.",
      "suggestedFixes": [
        {
          "order": 1,
          "side": "sender",
          "field": "PID.5",
          "action": "Restore the mapping of the patient's legal name into PID-5 (family^given) in the outbound interface; compare with a message from before the change."
        },
        {
          "order": 2,
          "side": "receiver",
          "field": "PID.5",
          "action": "Hold failed messages and replay them once the sender's mapping is fixed, so no registration is lost."
        }
      ],
      "affectedFields": [
        {
          "path": "PID.5",
          "name": "Patient Name",
          "dataType": "XPN",
          "table": null,
          "codes": [
            "REQUIRED_FIELD_MISSING"
          ]
        }
      ],
      "category": "missing-data",
      "confidence": 0.9,
      "engine": "rules",
      "standard": "hl7",
      "messageType": "ADT^A01",
      "version": "2.5.1",
      "knowledgeEntry": "hl7.required-field-missing.pid5",
      "findings": {
        "errors": 1,
        "warnings": 0,
        "byCode": {
          "REQUIRED_FIELD_MISSING": 1
        }
      },
      "signals": [
        "timestamp-no-zone",
        "pid5-empty"
      ],
      "notes": []
    },
  },
  patterns: {
    body: { interfaceId: 'b3c1f0a2-0000-4000-8000-000000000001', sinceHours: 24 },
    response: {
      "interfaceId": "b3c1f0a2-0000-4000-8000-000000000001",
      "interfaceName": "Registration ADT",
      "window": {
        "since": "2026-03-01T08:00:00.000Z",
        "until": "2026-03-02T08:00:00.000Z"
      },
      "previousWindow": {
        "since": "2026-02-28T08:00:00.000Z",
        "until": "2026-03-01T08:00:00.000Z"
      },
      "clusterKeyVersion": 1,
      "failedMessages": 20,
      "previousFailedMessages": 0,
      "clusterCount": 1,
      "patterns": [
        {
          "key": "v1:REQUIRED_FIELD_MISSING|PV1.2|ADT^A08|REGSYS",
          "code": "REQUIRED_FIELD_MISSING",
          "field": "PV1.2",
          "messageType": "ADT^A08",
          "sendingApplication": "REGSYS",
          "standard": "hl7",
          "version": "2.5.1",
          "count": 20,
          "share": 1,
          "previousCount": 0,
          "trend": "new",
          "firstSeen": "2026-03-01T09:20:00.000Z",
          "lastSeen": "2026-03-01T09:58:00.000Z",
          "exampleControlIds": [
            "CTRL59",
            "CTRL58",
            "CTRL57"
          ],
          "explanation": {
            "rootCause": "PV1.2 is required in ADT^A08 v2.5.1 but the sender left it empty.",
            "category": "missing-data",
            "suggestedFix": "sender: Populate PV1.2 for every ADT^A08 the interface sends; check the outbound mapping for this event.",
            "knowledgeEntry": "hl7.required-field-missing"
          }
        }
      ],
      "truncated": false
    },
  },
  summary: {
    body: { interfaceId: 'b3c1f0a2-0000-4000-8000-000000000001', sinceHours: 24 },
    response: {
      "interfaceId": "b3c1f0a2-0000-4000-8000-000000000001",
      "interfaceName": "Steady ADT",
      "window": {
        "since": "2026-03-01T08:00:00.000Z",
        "until": "2026-03-02T08:00:00.000Z"
      },
      "summary": "Steady ADT received 60 message(s) in the last 24 hour(s), with none in the window before. 16 failed (error rate 26.7 %, before n/a). The main failure pattern is REQUIRED_FIELD_MISSING at PV1.2 in ADT^A08 (16 message(s), new). No alert is open.",
      "facts": {
        "messages": 60,
        "previousMessages": 0,
        "volumeChange": null,
        "failed": 16,
        "errorRate": 0.26666666666666666,
        "previousErrorRate": null,
        "averageLatencyMs": null,
        "p99LatencyMs": null,
        "lastMessageAt": "2026-03-01T09:00:00.000Z",
        "silentMinutes": 0,
        "openAlerts": [],
        "topPatterns": [
          {
            "key": "v1:REQUIRED_FIELD_MISSING|PV1.2|ADT^A08|REGSYS",
            "code": "REQUIRED_FIELD_MISSING",
            "field": "PV1.2",
            "messageType": "ADT^A08",
            "count": 16,
            "trend": "new"
          }
        ]
      }
    },
  },
  upgradeCheck: {
    body: { interfaceId: 'b3c1f0a2-0000-4000-8000-000000000001', sinceHours: 24 },
    response: {
      "interfaceId": "b3c1f0a2-0000-4000-8000-000000000001",
      "interfaceName": "Registration ADT",
      "assessment": "detected",
      "upgradeDetected": true,
      "confidence": 0.96,
      "changePoint": "2026-03-01T09:20:00.000Z",
      "changes": [
        {
          "kind": "version",
          "before": [
            "2.3"
          ],
          "after": [
            "2.5.1"
          ],
          "firstSeen": "2026-03-01T09:20:00.000Z",
          "messages": 20
        },
        {
          "kind": "software-version",
          "before": [
            "(none)"
          ],
          "after": [
            "9.2"
          ],
          "firstSeen": "2026-03-01T09:20:00.000Z",
          "messages": 20
        },
        {
          "kind": "segment-appeared",
          "before": [],
          "after": [
            "SFT"
          ],
          "firstSeen": "2026-03-01T09:20:00.000Z",
          "messages": 20
        },
        {
          "kind": "segment-appeared",
          "before": [],
          "after": [
            "ZPI"
          ],
          "firstSeen": "2026-03-01T09:20:00.000Z",
          "messages": 20
        },
        {
          "kind": "new-issue-code",
          "before": [],
          "after": [
            "REQUIRED_FIELD_MISSING"
          ],
          "firstSeen": "2026-03-01T09:20:00.000Z",
          "messages": 20
        }
      ],
      "baselineMessages": 40,
      "afterMessages": 20,
      "explanation": "The sender changed at 2026-03-01T09:20:00.000Z: version 2.3 -> 2.5.1; software-version (none) -> 9.2; segment SFT appeared; segment ZPI appeared; new issue code REQUIRED_FIELD_MISSING. 5 change(s) starting at one point (confidence 0.96) indicate a vendor upgrade or reconfiguration; the baseline is the 40 message(s) before it.",
      "window": {
        "since": "2026-03-01T08:00:00.000Z",
        "until": "2026-03-02T08:00:00.000Z"
      },
      "baselineWindow": {
        "since": "2026-02-22T08:00:00.000Z",
        "until": "2026-03-01T09:20:00.000Z"
      },
      "messagesRead": 60,
      "confidenceMethod": CONFIDENCE_METHOD
    },
  },
};
