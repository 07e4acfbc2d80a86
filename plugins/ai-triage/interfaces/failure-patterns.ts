/**
 * Failure patterns of an interface: its failed messages clustered by issue code, field, message type and sending
 * application, ranked by how many messages show each, with first and last seen, example control ids and a trend
 * against the previous window of the same length.
 *
 * Cluster keys are versioned (`v1:...`), as Sentry keeps its grouping versions: a better grouping later gets `v2`
 * keys and leaves the keys of history as they were, so stored references to a cluster keep meaning the same thing.
 */
import { normalisePath } from '../triage/triage-engine.ts';

/** Version of the cluster keys this module makes. */
export const CLUSTER_KEY_VERSION = 1;

/** What the clustering reads of a failed message (a projection of the monitor's MessageFacts). */
export interface FailureFacts {
  receivedAt: string;
  messageType: string | null;
  triggerEvent: string | null;
  controlId: string | null;
  sendingApplication: string | null;
  standard: string;
  /** MSH-12 (or the standard's version): not part of the key, shown with the cluster (its latest value). */
  version: string | null;
  errors: ReadonlyArray<{ field: string; code: string }>;
}

/** Trend of a cluster against the previous window. */
export type PatternTrend = 'new' | 'rising' | 'steady' | 'falling';

/** What names a cluster: its versioned key and the facts it groups by, with the latest declared version. */
export interface ClusterIdentity {
  key: string;
  code: string;
  field: string;
  messageType: string | null;
  sendingApplication: string | null;
  standard: string;
  /** The version the latest message of the cluster declared. */
  version: string | null;
}

/** One cluster. */
export interface FailurePattern extends ClusterIdentity {
  /** Messages showing the pattern in the window. */
  count: number;
  /** Share of the window's failed messages (0..1). */
  share: number;
  previousCount: number;
  trend: PatternTrend;
  firstSeen: string;
  lastSeen: string;
  /** Up to three control ids (MSH-10) of messages showing it, most recent first. */
  exampleControlIds: string[];
}

/**
 * What a bucket of the triage aggregate keeps of one cluster (triage-tables.ts): additive parts that merge into the
 * cluster of a whole window. `examples` are the bucket's latest control ids, oldest first.
 */
export interface ClusterPart extends ClusterIdentity {
  count: number;
  firstSeen: string;
  lastSeen: string;
  examples: string[];
}

/** Accumulates clusters from failed messages, or from stored parts of them. */
export class PatternCounter {
  private readonly clusters = new Map<string, ClusterPart>();
  failedMessages = 0;

  /** Counts one failed message (each of its clusters once). */
  add(facts: FailureFacts): void {
    this.failedMessages++;
    const type = facts.messageType ? (facts.triggerEvent ? `${facts.messageType}^${facts.triggerEvent}` : facts.messageType) : null;
    const seen = new Set<string>();
    for (const error of facts.errors) {
      const field = normalisePath(error.field);
      const key = `v${CLUSTER_KEY_VERSION}:${error.code}|${field}|${type ?? ''}|${facts.sendingApplication ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.merge({
        key,
        code: error.code,
        field,
        messageType: type,
        sendingApplication: facts.sendingApplication,
        standard: facts.standard,
        version: facts.version,
        count: 1,
        firstSeen: facts.receivedAt,
        lastSeen: facts.receivedAt,
        examples: facts.controlId ? [facts.controlId] : [],
      });
    }
  }

  /** Adds a part of a cluster (one message's, or a stored bucket's): counts add, the later part gives version and examples. */
  merge(part: ClusterPart): void {
    const cluster = this.clusters.get(part.key);
    if (!cluster) {
      this.clusters.set(part.key, { ...part, examples: part.examples.slice(-3) });
      return;
    }
    cluster.count += part.count;
    if (part.firstSeen < cluster.firstSeen) cluster.firstSeen = part.firstSeen;
    if (part.lastSeen >= cluster.lastSeen) {
      cluster.lastSeen = part.lastSeen;
      cluster.version = part.version;
      cluster.examples = [...cluster.examples, ...part.examples].slice(-3);
    } else if (cluster.examples.length < 3) {
      cluster.examples = [...part.examples, ...cluster.examples].slice(-3);
    }
  }

  /** Every cluster as a part (what a bucket stores). */
  parts(): ClusterPart[] {
    return [...this.clusters.values()];
  }

  /** Counts per cluster key (for the previous window). */
  counts(): Map<string, number> {
    return new Map([...this.clusters.entries()].map(([key, cluster]) => [key, cluster.count]));
  }

  /** Clusters ranked by count (then key), with trend against the previous window's counts. */
  ranked(previous: ReadonlyMap<string, number>, limit: number): FailurePattern[] {
    const all = [...this.clusters.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
    return all.slice(0, limit).map(({ examples, ...cluster }) => {
      const before = previous.get(cluster.key) ?? 0;
      return {
        ...cluster,
        share: this.failedMessages === 0 ? 0 : Math.round((cluster.count / this.failedMessages) * 1000) / 1000,
        previousCount: before,
        trend: trendOf(cluster.count, before),
        exampleControlIds: [...examples].reverse(),
      };
    });
  }

  /** Number of clusters. */
  get size(): number {
    return this.clusters.size;
  }
}

/**
 * Trend from two counts: `new` when the previous window had none; rising or falling when the count moved by at least
 * half and by at least three messages (so 1 -> 2 is steady, noise rather than a trend); steady otherwise.
 */
export function trendOf(current: number, previous: number): PatternTrend {
  if (previous === 0) return 'new';
  const change = current - previous;
  if (Math.abs(change) < 3 || Math.abs(change) < previous * 0.5) return 'steady';
  return change > 0 ? 'rising' : 'falling';
}
