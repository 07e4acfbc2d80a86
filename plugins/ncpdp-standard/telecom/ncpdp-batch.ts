/**
 * NCPDP Batch Standard 1.2 files: Telecommunication D.0 transactions exchanged as a file rather than one by one.
 * Every record is framed by STX (0x02) and ETX (0x03), optionally followed by a line break:
 *
 * - transmission header record `00`: transmission type, sender ID, batch number, creation date (CCYYMMDD) and
 *   time (HHMM), file type (`P` production, `T` test), batch version/release (`12`), receiver ID;
 * - detail records `G1`: a 10-character transaction reference number, then one D.0 transaction;
 * - a trailer record `99`: the batch number again, the record count (every record of the file, header and trailer
 *   included) and an optional message.
 *
 * The fixed-width layout below is the one of the Batch Standard Implementation Guide 1.2 as publicly summarised
 * (NCPDP's documents are licensed). This module reads and writes the framing; ncpdp-batch-rules.ts validates.
 */

/** Start of a record. */
export const BATCH_STX = '\x02';
/** End of a record. */
export const BATCH_ETX = '\x03';

/** One fixed-width field of a batch record. */
export interface BatchFieldDefinition {
  /** Name used in paths (`Batch.Header.SenderID`). */
  id: string;
  name: string;
  length: number;
}

/** The transmission header record, after its STX. */
export const BATCH_HEADER_LAYOUT: readonly BatchFieldDefinition[] = [
  { id: 'RecordType', name: 'Record Type', length: 2 },
  { id: 'TransmissionType', name: 'Transmission Type', length: 1 },
  { id: 'SenderID', name: 'Sender ID', length: 24 },
  { id: 'BatchNumber', name: 'Batch Number', length: 7 },
  { id: 'CreationDate', name: 'Creation Date', length: 8 },
  { id: 'CreationTime', name: 'Creation Time', length: 4 },
  { id: 'FileType', name: 'File Type', length: 1 },
  { id: 'VersionRelease', name: 'Version/Release Number', length: 2 },
  { id: 'ReceiverID', name: 'Receiver ID', length: 24 },
];

/** The fixed part of a detail record, before the D.0 transaction. */
export const BATCH_DETAIL_LAYOUT: readonly BatchFieldDefinition[] = [
  { id: 'RecordType', name: 'Record Type', length: 2 },
  { id: 'TransactionReferenceNumber', name: 'Transaction Reference Number', length: 10 },
];

/** The trailer record, after its STX. */
export const BATCH_TRAILER_LAYOUT: readonly BatchFieldDefinition[] = [
  { id: 'RecordType', name: 'Record Type', length: 2 },
  { id: 'BatchNumber', name: 'Batch Number', length: 7 },
  { id: 'RecordCount', name: 'Record Count', length: 10 },
  { id: 'Message', name: 'Message', length: 35 },
];

/** The batch version/release this plugin reads and writes. */
export const BATCH_VERSION = '12';

/** Fields of one record by id, values with trailing blanks removed; `present` false when the record was too short. */
export type BatchFields = Record<string, { value: string; present: boolean }>;

/** One STX...ETX record of the file. */
export interface BatchRecord {
  /** 1-based position in the file: the header is record 1. */
  number: number;
  /** Record type: the first two characters (`00`, `G1`, `99`). */
  type: string;
  /** The record's text between STX and ETX. */
  text: string;
  /** False when the record was not closed by ETX (the file ended, or another STX came first). */
  closed: boolean;
}

/** A batch file split into records, with what lay outside the framing. */
export interface BatchFile {
  format: 'batch';
  records: BatchRecord[];
  /** Text found outside any STX...ETX record (line breaks between records excluded). */
  stray: Array<{ afterRecord: number; text: string }>;
}

/** True when the content opens like a batch file: STX then a transmission header record `00`. */
export function looksLikeNcpdpBatch(content: string): boolean {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  return text.startsWith(`${BATCH_STX}00`);
}

/** Splits a batch file into its records (one pass; never throws). */
export function splitNcpdpBatch(content: string): BatchFile {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const records: BatchRecord[] = [];
  const stray: BatchFile['stray'] = [];
  let pos = 0;
  while (pos < text.length) {
    const start = text.indexOf(BATCH_STX, pos);
    const gap = (start === -1 ? text.slice(pos) : text.slice(pos, start)).replace(/[\r\n]+/g, '');
    if (gap !== '') stray.push({ afterRecord: records.length, text: gap });
    if (start === -1) break;
    const end = text.indexOf(BATCH_ETX, start + 1);
    const nextStart = text.indexOf(BATCH_STX, start + 1);
    const closed = end !== -1 && (nextStart === -1 || end < nextStart);
    const stop = closed ? end : nextStart === -1 ? text.length : nextStart;
    const body = text.slice(start + 1, stop);
    records.push({ number: records.length + 1, type: body.slice(0, 2), text: body, closed });
    pos = closed ? end + 1 : stop;
  }
  return { format: 'batch', records, stray };
}

/** Reads the fixed-width fields of a record. */
export function readBatchFields(text: string, layout: readonly BatchFieldDefinition[]): BatchFields {
  const fields: BatchFields = {};
  let offset = 0;
  for (const def of layout) {
    fields[def.id] = { value: text.slice(offset, offset + def.length).trimEnd(), present: offset < text.length };
    offset += def.length;
  }
  return fields;
}

/** Length of a layout's fixed part. */
export function layoutLength(layout: readonly BatchFieldDefinition[]): number {
  return layout.reduce((sum, def) => sum + def.length, 0);
}

/** What a generated batch file carries. */
export interface BatchWriteRequest {
  senderId: string;
  receiverId: string;
  batchNumber: number;
  /** CCYYMMDD and HHMM. */
  creationDate: string;
  creationTime: string;
  fileType: 'P' | 'T';
  /** The D.0 transactions with their reference numbers. */
  transactions: Array<{ reference: string; transaction: string }>;
}

function fixed(value: string, width: number): string {
  return value.slice(0, width).padEnd(width, ' ');
}

/** Writes a batch file: header, one detail record per transaction, trailer; each record framed and on its own line. */
export function writeNcpdpBatch(request: BatchWriteRequest): string {
  const batchNumber = String(request.batchNumber).padStart(7, '0').slice(-7);
  const header =
    '00' +
    'T' +
    fixed(request.senderId, 24) +
    batchNumber +
    request.creationDate +
    request.creationTime +
    request.fileType +
    BATCH_VERSION +
    fixed(request.receiverId, 24);
  const details = request.transactions.map(({ reference, transaction }) => `G1${fixed(reference, 10)}${transaction}`);
  const trailer = `99${batchNumber}${String(details.length + 2).padStart(10, '0')}${fixed('', 35)}`;
  return [header, ...details, trailer].map((record) => `${BATCH_STX}${record}${BATCH_ETX}`).join('\n');
}

/** The fields of a record as path/value pairs (`record[1].SenderID`), by the layout of its type. */
export function flattenBatchRecordFields(record: BatchRecord): Array<[string, string]> {
  const layout = record.number === 1 ? BATCH_HEADER_LAYOUT : record.type === '99' ? BATCH_TRAILER_LAYOUT : record.type === 'G1' ? BATCH_DETAIL_LAYOUT : [];
  if (layout.length === 0) return [[`record[${record.number}]`, record.text]];
  const fields = readBatchFields(record.text, layout);
  return layout.filter((def) => def.id !== 'RecordType' && fields[def.id]?.value !== '').map((def) => [`record[${record.number}].${def.id}`, fields[def.id]?.value ?? '']);
}

/** The D.0 transaction of a detail record (what follows its fixed part). */
export function detailTransaction(record: BatchRecord): string {
  return record.text.slice(layoutLength(BATCH_DETAIL_LAYOUT));
}
