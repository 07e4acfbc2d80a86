/**
 * The content digest of a whole file's text (messages/message-facts.ts `digestOf` of the bytes read as UTF-8), computed a
 * megabyte at a time with turns between: a file the worker pool gave up on is one failed message whose digest covers
 * every byte, and decoding and hashing 20 MB at once held the event loop for half a second.
 */
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';
import { digestOf } from '../messages/message-facts.ts';

/** Bytes decoded and hashed per step. */
const STEP_BYTES = 1024 * 1024;

/**
 * SHA-256 (hex) of `content` decoded as UTF-8, the same as `digestOf(content.toString('utf8'))`: the decoder keeps a
 * character cut by a step's end for the next step, and replaces malformed bytes as a whole decode would.
 */
export async function textDigestInSlices(content: Buffer): Promise<string> {
  if (content.length <= STEP_BYTES) return digestOf(content.toString('utf8'));
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  const slice = new LoopSlice();
  for (let at = 0; at < content.length; at += STEP_BYTES) {
    hash.update(decoder.write(content.subarray(at, at + STEP_BYTES)), 'utf8');
    if (slice.spent()) await slice.pass();
  }
  hash.update(decoder.end(), 'utf8');
  return hash.digest('hex');
}
