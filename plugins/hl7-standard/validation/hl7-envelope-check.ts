/**
 * HL7 v2 batch envelopes (v2.5.1 chapter 2.10.3): a file is `[FHS] { [BHS] { MSH ... } [BTS] } [FTS]`. A file holds
 * one FHS and one FTS at most, each with the other; a batch opens with BHS and closes with BTS; BTS-1 (Batch Message
 * Count) equals the messages of its batch and FTS-1 (File Batch Count) the batches of its file; the fields of FHS, BHS,
 * BTS and FTS are checked against their definitions as a message's are. Each finding names the envelope segment
 * (`FHS.3`, `BHS[2]`, `BTS[2].1`, `FTS.1`), so an analyst sees which batch lost or gained messages.
 */
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import type { Hl7SegmentDefinition, Hl7VersionDefinitions } from '../hl7-definitions.ts';
import { checkSegmentFields } from './hl7-field-check.ts';
import type { Hl7IssueCollector } from './hl7-issue-messages.ts';
import type { Hl7Segment } from '../hl7-model.ts';
import type { Hl7BatchEnvelope } from '../parsing/hl7-parser.ts';

/** What the envelope check reads beside the envelope. */
export interface EnvelopeCheckContext {
  definitions: Hl7VersionDefinitions;
  issues: Hl7IssueCollector;
  /** The version the envelope is read as ("v2.5.1"), for sentences. */
  label: string;
}

/** The first component of a segment's field, as written. */
function fieldText(segment: Hl7Segment | undefined, field: number): string {
  return segment?.fields[field]?.[0]?.[0]?.[0] ?? '';
}

/**
 * Compares a count field (BTS-1, FTS-1) with what the envelope holds. An empty count says nothing (the field is
 * optional); a count that is not a whole number is a data-type finding of the field check.
 */
function checkCount(ctx: EnvelopeCheckContext, segment: Hl7Segment | undefined, path: string, what: string, actual: number): void {
  const written = fieldText(segment, 1).trim();
  if (!/^\d+$/.test(written)) return;
  const declared = Number(written);
  if (declared !== actual) {
    ctx.issues.add(
      'BATCH_ENVELOPE_INVALID',
      path,
      `${path} says ${declared} ${what} but ${actual === 1 ? 'there is' : 'there are'} ${actual}: ${declared > actual ? 'some were lost on the way or the count is wrong' : 'more arrived than the sender counted'}.`,
      undefined,
      { expected: `${declared} ${what} (declared)`, actual: `${actual} ${what}` },
    );
  }
}

/**
 * A composite field of an envelope segment with more components than its data type has (an HD of four components in
 * FHS-3): the receiver cannot tell which part is which, so the envelope does not identify its sender reliably.
 */
function checkComponentCounts(ctx: EnvelopeCheckContext, segment: Hl7Segment, path: string, definition: Hl7SegmentDefinition): void {
  for (const field of definition.fields) {
    if (field.position <= 2 && (segment.name === 'FHS' || segment.name === 'BHS')) continue;
    const components = ctx.definitions.dataType(field.dataType)?.components.length ?? 0;
    if (components < 2) continue;
    for (const repetition of segment.fields[field.position] ?? []) {
      const extra = repetition.slice(components).some((component) => component.some((part) => part !== ''));
      if (extra) {
        ctx.issues.add(
          'BATCH_ENVELOPE_INVALID',
          `${path}.${field.position}`,
          `${path}.${field.position} (${field.name}) has ${repetition.length} components but its data type ${field.dataType} has ${components}.`,
        );
        break;
      }
    }
  }
}

/** Checks the envelope of a parsed file. `messageCount` is the number of messages the file holds. */
export function checkBatchEnvelope(envelope: Hl7BatchEnvelope, messageCount: number, ctx: EnvelopeCheckContext): void {
  const { fileHeader, fileTrailer, batches } = envelope;
  if (!fileHeader && !fileTrailer && batches.length === 0) return;
  const batchPath = (index: number, name: 'BHS' | 'BTS'): string => (batches.length > 1 ? `${name}[${index + 1}]` : name);
  const pathOf = (segment: Hl7Segment): string => {
    if (segment.name === 'FHS' || segment.name === 'FTS') return segment.name;
    const index = batches.findIndex((batch) => batch.header === segment || batch.trailer === segment);
    return batchPath(Math.max(index, 0), segment.name as 'BHS' | 'BTS');
  };
  const fieldContext = { definitions: ctx.definitions, issues: ctx.issues, label: `the batch envelope (${ctx.label})`, pathOf };

  for (const extra of envelope.extraFileSegments ?? []) {
    ctx.issues.add(
      'BATCH_ENVELOPE_INVALID',
      `line ${extra.line}`,
      `A second ${extra.name} (File ${extra.name === 'FHS' ? 'Header' : 'Trailer'}) on line ${extra.line}: a file holds one at most.`,
    );
  }
  if (fileHeader && !fileTrailer) {
    ctx.issues.add('BATCH_ENVELOPE_INVALID', 'FTS', 'The file opens with FHS (File Header) but has no FTS (File Trailer): the file may be cut short.');
  }
  if (fileTrailer && !fileHeader) {
    ctx.issues.add('BATCH_ENVELOPE_INVALID', 'FHS', `The file closes with FTS (File Trailer, line ${fileTrailer.line}) but has no FHS (File Header).`);
  }
  batches.forEach((batch, index) => {
    if (batch.header && !batch.trailer) {
      ctx.issues.add(
        'BATCH_ENVELOPE_INVALID',
        batchPath(index, 'BTS'),
        `The batch opened by BHS on line ${batch.header.line} has no BTS (Batch Trailer): the batch may be cut short.`,
      );
    }
    if (batch.trailer) checkCount(ctx, batch.trailer, `${batchPath(index, 'BTS')}.1`, 'message(s) in its batch', batch.messageIndexes.length);
  });
  if (fileTrailer) checkCount(ctx, fileTrailer, 'FTS.1', 'batch(es) in the file', batches.length);
  if (batches.length > 0) {
    const inBatches = batches.reduce((sum, batch) => sum + batch.messageIndexes.length, 0);
    if (inBatches < messageCount) {
      ctx.issues.add(
        'BATCH_ENVELOPE_INVALID',
        'MSH',
        `${messageCount - inBatches} message(s) stand outside any BHS ... BTS batch of a batched file; each belongs inside a batch.`,
      );
    }
  }
  const segments: Hl7Segment[] = [];
  if (fileHeader) segments.push(fileHeader);
  for (const batch of batches) {
    if (batch.header) segments.push(batch.header);
    if (batch.trailer) segments.push(batch.trailer);
  }
  if (fileTrailer) segments.push(fileTrailer);
  for (const segment of segments) {
    const definition = ctx.definitions.segment(segment.name);
    if (definition) {
      checkSegmentFields(fieldContext, segment, definition);
      checkComponentCounts(ctx, segment, pathOf(segment), definition);
    }
    else ctx.issues.add('PARSE_ERROR', segment.name, `${segment.name} has no definition in ${ctx.label}; ${excerpt(segment.name)} was not checked.`);
  }
}
