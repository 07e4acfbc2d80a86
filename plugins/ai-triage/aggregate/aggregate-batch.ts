/**
 * One batch of the triage aggregate in memory: the messages the follower read since its last write, folded into the
 * failure clusters of their minute and hour (by received time) and into the upgrade signatures of their minute. The
 * aggregate store (aggregate-store.ts) merges a batch into the tables in one transaction.
 */
import { createHash } from 'node:crypto';
import type { MessageFacts } from '../../monitor/api.ts';
import { PatternCounter, type FailureFacts } from '../interfaces/failure-patterns.ts';
import { bucketStart, type TimeStep } from '../../../kernel/lib/time/time-steps.ts';

/** The start (ISO 8601 UTC) of the bucket of `step` holding the instant `ms`. */
function bucketIso(ms: number, step: TimeStep): string {
  return new Date(bucketStart(ms, step)).toISOString();
}
import { upgradeFeatures, type UpgradeFacts } from '../interfaces/upgrade-detector.ts';

/** The facts the follower reads of every stored message: what the clustering and the upgrade detector need. */
export const FOLLOWED_FIELDS = [
  'interfaceId',
  'isValid',
  'standard',
  'receivedAt',
  'messageTime',
  'messageType',
  'triggerEvent',
  'controlId',
  'sendingApplication',
  'version',
  'software',
  'segmentIds',
  'errors',
] as const satisfies ReadonlyArray<keyof MessageFacts>;

/** A message as the follower reads it. */
export type FollowedMessage = Pick<MessageFacts, (typeof FOLLOWED_FIELDS)[number]>;

/** Failure clusters of one bucket of one interface. */
export interface FailureBucket {
  interfaceId: string;
  step: Exclude<TimeStep, 'day'>;
  start: string;
  counter: PatternCounter;
}

/** Messages of one interface with one signature in one minute of sender time and one of received time. */
export interface SignatureBucket {
  interfaceId: string;
  signature: string;
  atMinute: string;
  receivedMinute: string;
  messages: number;
  firstAt: number;
  lastAt: number;
}

/** The in-memory batch. */
export class AggregateBatch {
  readonly failures = new Map<string, FailureBucket>();
  readonly signatures = new Map<string, { interfaceId: string; signature: string; features: string[] }>();
  readonly signatureBuckets = new Map<string, SignatureBucket>();
  /** Messages folded in. */
  size = 0;
  private readonly digests = new Map<string, string>();

  /** Folds one message in; `extra` are the features read from its text (upgrade-signals.ts), if any. */
  add(message: FollowedMessage, extra?: readonly string[]): void {
    this.size++;
    const received = Date.parse(message.receivedAt);
    if (!message.isValid && message.errors.length > 0) {
      for (const step of ['minute', 'hour'] as const) {
        const start = bucketIso(received, step);
        const key = `${message.interfaceId}\0${step}\0${start}`;
        let bucket = this.failures.get(key);
        if (!bucket) {
          bucket = { interfaceId: message.interfaceId, step, start, counter: new PatternCounter() };
          this.failures.set(key, bucket);
        }
        bucket.counter.add(message satisfies FailureFacts);
      }
    }
    const at = atOf(message);
    const facts: Omit<UpgradeFacts, 'at' | 'inWindow'> = {
      version: message.version,
      sendingApplication: message.sendingApplication,
      software: message.software,
      segmentIds: message.segmentIds,
      errorCodes: message.errors.map((error) => error.code),
      ...(extra ? { extra } : {}),
    };
    const features = [...new Set(upgradeFeatures(facts))].sort();
    const text = features.join('\n');
    let signature = this.digests.get(text);
    if (!signature) {
      signature = createHash('sha1').update(text).digest('hex');
      this.digests.set(text, signature);
    }
    const signatureKey = `${message.interfaceId}\0${signature}`;
    if (!this.signatures.has(signatureKey)) this.signatures.set(signatureKey, { interfaceId: message.interfaceId, signature, features });
    const atMinute = bucketIso(at, 'minute');
    const receivedMinute = bucketIso(received, 'minute');
    const bucketKey = `${signatureKey}\0${atMinute}\0${receivedMinute}`;
    const bucket = this.signatureBuckets.get(bucketKey);
    if (bucket) {
      bucket.messages++;
      if (at < bucket.firstAt) bucket.firstAt = at;
      if (at > bucket.lastAt) bucket.lastAt = at;
    } else {
      this.signatureBuckets.set(bucketKey, { interfaceId: message.interfaceId, signature, atMinute, receivedMinute, messages: 1, firstAt: at, lastAt: at });
    }
  }
}

/** The time the upgrade detector orders a message by: the sender's (MSH-7) when usable, else the received time. */
export function atOf(message: Pick<MessageFacts, 'messageTime' | 'receivedAt'>): number {
  const sent = message.messageTime ? Date.parse(message.messageTime) : Number.NaN;
  return Number.isFinite(sent) ? sent : Date.parse(message.receivedAt);
}
