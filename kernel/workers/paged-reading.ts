/**
 * A reading done in a worker thread crosses back to the event loop in pages: its messages as a few JSON texts
 * rather than one structured clone of every message object, which the event loop would deserialize in one stretch
 * (a second for a batch file of 100,000 messages). The texts cross as strings (a copy), and the event loop parses
 * them a page at a time, taking turns with the rest of its work (kernel LoopSlice).
 */
import type { ReadContentMessage, ReadContentResult } from '../standards-registry.ts';
import { LoopSlice } from '../lib/async/loop-slice.ts';

/** Messages per page: a page parses in a few milliseconds. */
const MESSAGES_PER_PAGE = 500;

/** A reading whose messages are JSON pages, as a worker answers it. */
export interface PagedReading extends Omit<ReadContentResult, 'messages'> {
  /** The messages in order, {@link MESSAGES_PER_PAGE} per page, each page a JSON array. */
  pages: string[];
}

/** A reading as pages (in the worker thread). */
export function toPages(read: ReadContentResult): PagedReading {
  const pages: string[] = [];
  for (let at = 0; at < read.messages.length; at += MESSAGES_PER_PAGE) pages.push(JSON.stringify(read.messages.slice(at, at + MESSAGES_PER_PAGE)));
  return { messageCount: read.messageCount, problems: read.problems, pages };
}

/** The reading of pages (on the event loop), parsed a page at a time with turns between. */
export async function fromPages(paged: PagedReading): Promise<ReadContentResult> {
  const messages: ReadContentMessage[] = [];
  const slice = new LoopSlice();
  for (const page of paged.pages) {
    for (const message of JSON.parse(page) as ReadContentMessage[]) messages.push(message);
    if (slice.spent()) await slice.pass();
  }
  return { messageCount: paged.messageCount, problems: paged.problems, messages };
}
