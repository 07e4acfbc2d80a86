/**
 * Validates an NCPDP Batch Standard 1.2 file: the framing of every record, the transmission header (sender ID,
 * batch number, creation date and time, file type), the trailer (batch number, record count) and each detail
 * record's D.0 transaction, validated like a transaction sent alone. Findings of a record carry its number in the
 * path (`record[3].AM07.D2`, `record[1].SenderID`); `messages` holds one result per detail record, its `index` the
 * record number and its `controlId` the transaction reference number.
 */
import { IssuePart, rewritingSink, type IssueList, type IssueSink } from '../../../kernel/standards/issue-list.ts';
import type { MessageValidationResult, ValidationIssue, ValidationResult } from '../../../kernel/standards-registry.ts';
import {
  BATCH_DETAIL_LAYOUT,
  BATCH_HEADER_LAYOUT,
  BATCH_TRAILER_LAYOUT,
  BATCH_VERSION,
  type BatchFieldDefinition,
  type BatchFields,
  type BatchRecord,
  detailTransaction,
  readBatchFields,
  splitNcpdpBatch,
} from './ncpdp-batch.ts';
import { IssueCollector, type NcpdpMode } from '../ncpdp-issues.ts';
import { actualValue, expectedCodes, MISSING_VALUE } from '../../../kernel/standards/issue-detail.ts';
import { isCcyymmdd } from '../value-formats.ts';

/**
 * Validates one D.0 transaction, its findings into `sink`, and answers its summary (the validator of single
 * messages, passed in to keep the modules acyclic).
 */
export type TransactionValidator = (transaction: string, sink: IssueSink) => Record<string, unknown>;

const FILE_TYPES: Record<string, string> = { P: 'production', T: 'test' };

function path(record: BatchRecord, field: string): string {
  return `record[${record.number}].${field}`;
}

function nameOf(layout: readonly BatchFieldDefinition[], id: string): string {
  return layout.find((def) => def.id === id)?.name ?? id;
}

function isHhmm(value: string): boolean {
  return /^\d{4}$/.test(value) && Number(value.slice(0, 2)) <= 23 && Number(value.slice(2)) <= 59;
}

/** Reports fields the record was too short to hold. */
function checkPresent(record: BatchRecord, fields: BatchFields, layout: readonly BatchFieldDefinition[], required: readonly string[], issues: IssueCollector, what: string): void {
  for (const id of required) {
    const field = fields[id];
    if (!field?.present || field.value.trim() === '') {
      issues.error(path(record, id), 'REQUIRED_FIELD_MISSING', `${what} record ${record.number}: ${nameOf(layout, id)} is required but is ${field?.present ? 'blank' : 'missing (the record is too short)'}.`, {
        expected: MISSING_VALUE.expected,
        actual: field?.present ? 'blank' : 'missing (the record is too short)',
      });
    }
  }
}

function checkHeader(record: BatchRecord, issues: IssueCollector): BatchFields {
  const fields = readBatchFields(record.text, BATCH_HEADER_LAYOUT);
  const get = (id: string) => fields[id]?.value ?? '';
  checkPresent(record, fields, BATCH_HEADER_LAYOUT, ['SenderID', 'BatchNumber', 'CreationDate', 'CreationTime', 'FileType'], issues, 'Header');
  const batchNumber = get('BatchNumber');
  if (batchNumber !== '' && !/^\d{7}$/.test(batchNumber)) {
    issues.error(path(record, 'BatchNumber'), 'INVALID_DATA_TYPE', `Header record ${record.number}: Batch Number "${batchNumber}" is not 7 digits.`, {
      expected: '7 digits',
      actual: actualValue(batchNumber),
    });
  }
  const date = get('CreationDate');
  if (date !== '' && !isCcyymmdd(date)) {
    issues.error(path(record, 'CreationDate'), 'INVALID_DATE', `Header record ${record.number}: Creation Date "${date}" is not a real date (CCYYMMDD).`, {
      expected: 'a real date, CCYYMMDD',
      actual: actualValue(date),
    });
  }
  const time = get('CreationTime');
  if (time !== '' && !isHhmm(time)) {
    issues.error(path(record, 'CreationTime'), 'INVALID_DATE', `Header record ${record.number}: Creation Time "${time}" is not a real time (HHMM).`, {
      expected: 'a real time, HHMM',
      actual: actualValue(time),
    });
  }
  const fileType = get('FileType');
  if (fileType !== '' && !(fileType in FILE_TYPES)) {
    issues.error(path(record, 'FileType'), 'VALUE_NOT_IN_TABLE', `Header record ${record.number}: File Type "${fileType}" is not P (production) or T (test).`, {
      expected: expectedCodes(Object.keys(FILE_TYPES)),
      actual: actualValue(fileType),
    });
  }
  const version = get('VersionRelease');
  if (version !== '' && version !== BATCH_VERSION) {
    issues.strictError(path(record, 'VersionRelease'), 'UNSUPPORTED_VERSION', `Header record ${record.number}: Version/Release Number "${version}" is not ${BATCH_VERSION} (Batch Standard 1.2).`, {
      expected: BATCH_VERSION,
      actual: actualValue(version),
    });
  }
  return fields;
}

function checkTrailer(record: BatchRecord, header: BatchFields | undefined, recordCount: number, issues: IssueCollector): void {
  const fields = readBatchFields(record.text, BATCH_TRAILER_LAYOUT);
  checkPresent(record, fields, BATCH_TRAILER_LAYOUT, ['BatchNumber', 'RecordCount'], issues, 'Trailer');
  const batchNumber = fields.BatchNumber?.value ?? '';
  const headerNumber = header?.BatchNumber?.value ?? '';
  if (batchNumber !== '' && headerNumber !== '' && batchNumber !== headerNumber) {
    issues.error(path(record, 'BatchNumber'), 'CONSTRAINT_FAILED', `Trailer record ${record.number}: Batch Number "${batchNumber}" differs from the header's "${headerNumber}".`, {
      expected: `the header's Batch Number, ${headerNumber}`,
      actual: actualValue(batchNumber),
    });
  }
  const count = fields.RecordCount?.value.trim() ?? '';
  if (count === '') return;
  if (!/^\d+$/.test(count)) {
    issues.error(path(record, 'RecordCount'), 'INVALID_DATA_TYPE', `Trailer record ${record.number}: Record Count "${count}" is not a number.`, {
      expected: 'a number (digits)',
      actual: actualValue(count),
    });
  } else if (Number(count) !== recordCount) {
    issues.error(
      path(record, 'RecordCount'),
      'CONSTRAINT_FAILED',
      `Trailer record ${record.number}: Record Count is ${Number(count)}, but the file holds ${recordCount} records (header, ${recordCount - 2} detail, trailer).`,
      { expected: `${recordCount}, the records of the file`, actual: String(Number(count)) },
    );
  }
}

/** Findings of a detail's transaction, moved under the record's path and named by it. */
/** A finding of a record's transaction as the batch reports it: under the record, naming it. */
function underRecord(issue: ValidationIssue, record: BatchRecord, reference: string): ValidationIssue {
  return {
    ...issue,
    field: path(record, issue.field),
    message: `Record ${record.number} (transaction ${reference || 'without reference'}): ${issue.message}`,
  };
}

/** Validates a batch file. */
export function validateNcpdpBatch(content: string, mode: NcpdpMode, list: IssueList, validateTransaction: TransactionValidator): ValidationResult {
  const file = splitNcpdpBatch(content);
  const issues = new IssueCollector(mode, list);
  let detailRecords = 0;
  const messages: MessageValidationResult[] = [];
  for (const stray of file.stray) {
    issues.error(`record[${stray.afterRecord}]`, 'PARSE_ERROR', `Text outside the STX/ETX framing after record ${stray.afterRecord}: "${stray.text.slice(0, 40)}".`, {
      expected: 'nothing between ETX and the next STX',
      actual: actualValue(stray.text),
    });
  }
  let header: BatchFields | undefined;
  let trailerSeen = false;
  const references = new Map<string, number>();
  for (const record of file.records) {
    if (!record.closed) issues.error(`record[${record.number}]`, 'PARSE_ERROR', `Record ${record.number} is not closed by ETX (0x03).`, {
        expected: 'ETX (0x03) closing the record',
        actual: 'no ETX',
      });
    if (trailerSeen) {
      issues.error(`record[${record.number}]`, 'SEGMENT_UNEXPECTED', `Record ${record.number} (type "${record.type}") comes after the trailer record.`, {
        expected: 'no record after the trailer (99)',
        actual: `record type ${actualValue(record.type)}`,
      });
      continue;
    }
    if (record.number === 1) {
      header = checkHeader(record, issues);
      continue;
    }
    if (record.type === '99') {
      trailerSeen = true;
      checkTrailer(record, header, file.records.length, issues);
      continue;
    }
    if (record.type !== 'G1') {
      issues.error(`record[${record.number}]`, 'SEGMENT_UNEXPECTED', `Record ${record.number} has type "${record.type}"; a batch holds a header (00), detail records (G1) and a trailer (99).`, {
        expected: 'a detail record (G1) or the trailer (99)',
        actual: `record type ${actualValue(record.type)}`,
      });
      continue;
    }
    const reference = readBatchFields(record.text, BATCH_DETAIL_LAYOUT).TransactionReferenceNumber?.value.trim() ?? '';
    if (reference === '') {
      issues.error(path(record, 'TransactionReferenceNumber'), 'REQUIRED_FIELD_MISSING', `Detail record ${record.number}: Transaction Reference Number is required but is blank.`, MISSING_VALUE);
    } else if (references.has(reference)) {
      issues.error(
        path(record, 'TransactionReferenceNumber'),
        'CONSTRAINT_FAILED',
        `Detail record ${record.number}: Transaction Reference Number "${reference}" was already used by record ${references.get(reference)}; responses are matched to claims by it.`,
        { expected: 'a reference no other record of the batch uses', actual: `${actualValue(reference)}, as record ${references.get(reference)}` },
      );
    } else references.set(reference, record.number);
    // The record's entry lists its findings (under the record) only while the batch's list has room for them.
    detailRecords++;
    const keepEntry = messages.length < list.limit;
    const part = new IssuePart(list, { listed: keepEntry });
    const summary = validateTransaction(detailTransaction(record), rewritingSink(part, (issue) => underRecord(issue, record, reference)));
    if (!keepEntry) continue;
    messages.push({
      index: record.number,
      ...(typeof summary.messageType === 'string' ? { messageType: summary.messageType } : {}),
      ...(reference ? { controlId: reference } : {}),
      isValid: part.errorCount === 0,
      errors: part.errors,
      warnings: part.warnings,
    });
  }
  if (!trailerSeen) issues.error('Trailer', 'SEGMENT_MISSING', `The batch has no trailer record (99) after its ${file.records.length} record(s).`, {
      expected: 'a trailer record (99) closing the batch',
      actual: 'none',
    });
  if (detailRecords === 0) issues.error('Detail', 'SEGMENT_MISSING', 'The batch holds no detail record (G1): no transaction to process.', {
      expected: 'at least one detail record (G1)',
      actual: 'none',
    });
  return {
    isValid: list.errorCount === 0,
    errors: list.errors,
    warnings: list.warnings,
    totals: list.totals(),
    truncated: list.truncated || messages.length < detailRecords,
    messages,
    summary: {
      format: 'Batch',
      batchVersion: header?.VersionRelease?.value || undefined,
      senderId: header?.SenderID?.value || undefined,
      batchNumber: header?.BatchNumber?.value || undefined,
      fileType: header?.FileType?.value ? (FILE_TYPES[header.FileType.value] ?? header.FileType.value) : undefined,
      records: file.records.length,
      transactions: detailRecords,
      mode,
    },
  };
}
