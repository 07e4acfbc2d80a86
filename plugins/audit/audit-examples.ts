/**
 * Example requests and answers of the audit routes, shown in the monitor base's OpenAPI document: the docs page
 * pre-fills "Try it out" with them. The entries are an admin's feature-flag change and SLA definition, chained by hash.
 */

/** Two chained entries, newest first (as the query answers them). */
const ENTRIES = [
  {
    id: 1842,
    at: '2026-01-14T16:05:33.251Z',
    actor: 'wbk_v5dpwea7v0i0',
    actorKind: 'api-key',
    action: 'flag.set',
    resourceType: 'feature-flag',
    resourceId: 'betaDashboards',
    outcome: 'success',
    requestId: 'd689d56d-737a-41b8-94d7-8e891a9cb0e1',
    sourceAddress: '10.20.4.17',
    details: { enabled: true, workspaceId: 'radiology-integrations' },
    previousHash: '8a331f6cb224bca29844c43bd7536b919e55b52f508ce98f17f00b7d5c3d7880',
    hash: '0357226feb81ee98c457c3e77693cbe2514c7a57fc4e3dd6755b7065e643afbc',
  },
  {
    id: 1841,
    at: '2026-01-14T15:58:02.904Z',
    actor: 'wbk_v5dpwea7v0i0',
    actorKind: 'api-key',
    action: 'sla.upsert',
    resourceType: 'sla',
    resourceId: '5f0c2a7e-3b1d-4c8e-9a61-2d4f7b9e1c30',
    outcome: 'success',
    requestId: '5081d22d-2b35-4525-a787-ff4fa75fefeb',
    sourceAddress: '10.20.4.17',
    details: { uptimeTarget: 99.5, maxResponseMs: 2000, alertThresholdPercent: 80, created: true },
    previousHash: 'a4ff250c996250c59d73b9150bf8373b3d8e9e2b22ad9dacf4e13d99b4997ad0',
    hash: '8a331f6cb224bca29844c43bd7536b919e55b52f508ce98f17f00b7d5c3d7880',
  },
];

const FILTER = { resourceType: 'sla', from: '2026-01-01', to: '2026-01-15T00:00:00Z' };

/** Examples of the audit routes, by route. */
export const AUDIT_EXAMPLES = {
  query: {
    query: { ...FILTER, limit: 50, offset: 0 },
    response: { total: 1, limit: 50, offset: 0, entries: [ENTRIES[1]] },
  },
  export: {
    query: { ...FILTER, format: 'csv' },
    response: [
      'id,at,actor,actorKind,action,resourceType,resourceId,outcome,requestId,sourceAddress,details,previousHash,hash',
      `1841,2026-01-14T15:58:02.904Z,wbk_v5dpwea7v0i0,api-key,sla.upsert,sla,5f0c2a7e-3b1d-4c8e-9a61-2d4f7b9e1c30,success,` +
        `5081d22d-2b35-4525-a787-ff4fa75fefeb,10.20.4.17,"{""uptimeTarget"":99.5,""maxResponseMs"":2000,""alertThresholdPercent"":80,""created"":true}",` +
        `${ENTRIES[1].previousHash},${ENTRIES[1].hash}`,
      '',
    ].join('\n'),
  },
  verify: {
    response: {
      intact: true,
      checked: 1842,
      anchor: null,
      firstBroken: null,
      brokenLinks: [],
      brokenTotal: 0,
      checkpoint: {
        headId: 1842,
        headHash: ENTRIES[0].hash,
        at: '2026-01-14T16:05:33.252Z',
        anchorId: null,
        anchorHash: null,
        keyedFromId: 1,
      },
    },
  },
};
