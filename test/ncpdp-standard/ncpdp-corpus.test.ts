/**
 * Conformance over the shared NCPDP corpus (real public sample messages). Every file is validated in strict mode and
 * its findings compared with the reviewed list below; each entry was checked against the file by hand:
 * - cosyte fixtures declare `version="2017071"`/`"2023011"` but not the six version attributes, and no
 *   SenderSoftware; their NPIs 1888888888/1999999999 fail the NPI check digit;
 * - the mcode-pims NewRx has no namespace, no version, a Header with only MessageID, and a hyphenated 10-digit NDC;
 * - edge-empties carries empty Gender, DateOfBirth, WrittenDate, QuantityUnitOfMeasure and an empty NDC;
 * - the malformed implementation-guide copy breaks at `</  From>` on line 9;
 * - the D.0 response header stops before 401-D1 and its DUR segment carries 474-8E, a request-only field;
 * - the D.0 B1 request has a non-numeric 402-D2, no Pricing segment, no 406-D6 and 414-DE, and provider NPIs
 *   whose check digits fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';
import { validateNcpdp } from '../../plugins/ncpdp-standard/ncpdp-validator.ts';
import { parseNcpdp } from '../../plugins/ncpdp-standard/ncpdp-parser.ts';
import { detectNcpdpFormat } from '../../plugins/ncpdp-standard/ncpdp-detect.ts';

const dir = corpusDir('ncpdp');
const files = corpusFiles('ncpdp');

/** Reviewed strict-mode errors per corpus file: `CODE path`. */
const REVIEWED: Record<string, string[]> = {
  'MALFORMED_SCRIPT_NewRx_2021071__mcode-pims_data.xml': [
    'PARSE_ERROR Message',
  ],
  'SCRIPT_2023011_surescripts-version__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'REQUIRED_FIELD_MISSING NewRx.Patient.HumanPatient.Gender',
    'REQUIRED_FIELD_MISSING NewRx.Patient.HumanPatient.DateOfBirth',
    'REQUIRED_FIELD_MISSING NewRx.Prescriber',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.CodeListQualifier',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.QuantityUnitOfMeasure',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.WrittenDate',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Sig',
  ],
  'SCRIPT_CancelRx__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'REQUIRED_FIELD_MISSING CancelRx.Patient.HumanPatient.Gender',
    'REQUIRED_FIELD_MISSING CancelRx.Patient.HumanPatient.DateOfBirth',
    'INVALID_CHECK_DIGIT CancelRx.Prescriber.NonVeterinarian.Identification.NPI',
  ],
  'SCRIPT_Error__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
  ],
  'SCRIPT_NewRx_2017071-style_no-namespace__mcode-pims_newrx.xml': [
    'NAMESPACE_MISSING Message@xmlns',
    'VERSION_MISSING Message@version',
    'REQUIRED_FIELD_MISSING Header.To',
    'REQUIRED_FIELD_MISSING Header.From',
    'REQUIRED_FIELD_MISSING Header.SentTime',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'INVALID_DATA_TYPE NewRx.MedicationPrescribed.DrugCoded.ProductCode.Code',
  ],
  'SCRIPT_NewRx_basic__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'INVALID_CHECK_DIGIT NewRx.Pharmacy.Identification.NPI',
    'INVALID_CHECK_DIGIT NewRx.Prescriber.NonVeterinarian.Identification.NPI',
  ],
  'SCRIPT_NewRx_edge-empties__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.To',
    'REQUIRED_FIELD_MISSING Header.From',
    'REQUIRED_FIELD_MISSING Header.SentTime',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'REQUIRED_FIELD_MISSING NewRx.Patient.HumanPatient.Name.FirstName',
    'REQUIRED_FIELD_MISSING NewRx.Patient.HumanPatient.Gender',
    'REQUIRED_FIELD_MISSING NewRx.Patient.HumanPatient.DateOfBirth',
    'REQUIRED_FIELD_MISSING NewRx.Prescriber',
    'REQUIRED_FIELD_MISSING NewRx.Pharmacy.Identification',
    'REQUIRED_FIELD_MISSING NewRx.Pharmacy.BusinessName',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.CodeListQualifier',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.QuantityUnitOfMeasure',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.WrittenDate',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Sig',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.DrugCoded.ProductCode',
  ],
  'SCRIPT_NewRx_no-version__cosyte.xml': [
    'NAMESPACE_MISSING Message@xmlns',
    'VERSION_MISSING Message@version',
    'REQUIRED_FIELD_MISSING Header.To',
    'REQUIRED_FIELD_MISSING Header.From',
    'REQUIRED_FIELD_MISSING Header.SentTime',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'REQUIRED_FIELD_MISSING NewRx.Patient',
    'REQUIRED_FIELD_MISSING NewRx.Prescriber',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.CodeListQualifier',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.QuantityUnitOfMeasure',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.WrittenDate',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Sig',
  ],
  'SCRIPT_NewRx_structured-sig__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.To',
    'REQUIRED_FIELD_MISSING Header.From',
    'REQUIRED_FIELD_MISSING Header.SentTime',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'REQUIRED_FIELD_MISSING NewRx.Patient',
    'REQUIRED_FIELD_MISSING NewRx.Prescriber',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.CodeListQualifier',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.Quantity.QuantityUnitOfMeasure',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed.WrittenDate',
  ],
  'SCRIPT_RxChangeRequest__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'REQUIRED_FIELD_MISSING RxChangeRequest.MessageRequestCode',
    'INVALID_CHECK_DIGIT RxChangeRequest.Pharmacy.Identification.NPI',
    'INVALID_CHECK_DIGIT RxChangeRequest.Prescriber.NonVeterinarian.Identification.NPI',
  ],
  'SCRIPT_RxRenewalRequest__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
    'INVALID_CHECK_DIGIT RxRenewalRequest.Pharmacy.Identification.NPI',
    'INVALID_CHECK_DIGIT RxRenewalRequest.Prescriber.NonVeterinarian.Identification.NPI',
  ],
  'SCRIPT_Status__cosyte.xml': [
    'REQUIRED_FIELD_MISSING Message@DatatypesVersion',
    'REQUIRED_FIELD_MISSING Message@TransportVersion',
    'REQUIRED_FIELD_MISSING Message@TransactionDomain',
    'REQUIRED_FIELD_MISSING Message@TransactionVersion',
    'REQUIRED_FIELD_MISSING Message@StructuresVersion',
    'REQUIRED_FIELD_MISSING Message@ECLVersion',
    'REQUIRED_FIELD_MISSING Header.SenderSoftware',
  ],
  'SCRIPT_legacy-version__cosyte.xml': [
    'NAMESPACE_MISSING Message@xmlns',
    'REQUIRED_FIELD_MISSING Header.To',
    'REQUIRED_FIELD_MISSING Header.From',
    'REQUIRED_FIELD_MISSING Header.SentTime',
    'REQUIRED_FIELD_MISSING NewRx.Patient',
    'REQUIRED_FIELD_MISSING NewRx.Prescriber',
    'REQUIRED_FIELD_MISSING NewRx.MedicationPrescribed',
  ],
  'TELECOM_D0_response_DUR__cosyte.ncpdp': [
    'REQUIRED_FIELD_MISSING Header.D1',
    'INVALID_CHECK_DIGIT Header.B1',
    'UNKNOWN_ELEMENT AM24.8E',
  ],
  'TELECOM_D0_response_person-code__cosyte.ncpdp': [
    'INVALID_CHECK_DIGIT Header.B1',
    'SEGMENT_MISSING AM11',
    'INVALID_DATA_TYPE AM07.D2',
    'REQUIRED_FIELD_MISSING AM07.D6',
    'REQUIRED_FIELD_MISSING AM07.DE',
    'INVALID_CHECK_DIGIT AM03.DB',
  ],
};

const read = (name: string) => readFileSync(join(dir as string, name), 'utf8');
const errorsOf = (name: string, mode: 'strict' | 'compatibility' = 'strict') =>
  validateNcpdp(read(name), { mode }).errors.map((issue) => `${issue.code} ${issue.field}`);

describe.skipIf(!dir)('NCPDP shared corpus', () => {
  it('has a reviewed expectation for every corpus file', () => {
    expect(files.filter((name) => !(name in REVIEWED))).toEqual([]);
  });

  for (const name of files) {
    it(`${name}: strict findings match the review`, () => {
      expect(errorsOf(name)).toEqual(REVIEWED[name] ?? ['(no review yet)']);
    });
  }

  it('detects every file as NCPDP of the right family', () => {
    for (const name of files) {
      const expected = name.startsWith('TELECOM') ? 'telecom' : 'script';
      expect(detectNcpdpFormat(read(name)).format, name).toBe(expected);
    }
  });

  it('parses the namespaced SCRIPT fixtures with their namespace', () => {
    const namespaced = files.filter((name) => name.endsWith('.xml') && read(name).includes('xmlns="http://www.ncpdp.org/schema/SCRIPT"'));
    expect(namespaced.length).toBeGreaterThan(0);
    for (const name of namespaced) {
      const outcome = parseNcpdp(read(name));
      expect(outcome.ok, name).toBe(true);
      expect(outcome.ok && outcome.message.format === 'script' ? outcome.message.namespace : undefined, name).toBe('http://www.ncpdp.org/schema/SCRIPT');
    }
  });

  it('gives a PARSE_ERROR with line and column for MALFORMED files', () => {
    for (const name of files.filter((n) => n.startsWith('MALFORMED_'))) {
      const result = validateNcpdp(read(name), { mode: 'strict' });
      expect(result.isValid).toBe(false);
      expect(result.errors[0].code).toBe('PARSE_ERROR');
      expect(result.errors[0].message).toMatch(/line \d+, column \d+/);
    }
  });

  it('reads the D.0 responses: header, status and DUR segments', () => {
    for (const name of files.filter((n) => n.startsWith('TELECOM_D0_response'))) {
      const outcome = parseNcpdp(read(name));
      expect(outcome.ok, name).toBe(true);
    }
    const outcome = parseNcpdp(read('TELECOM_D0_response_DUR__cosyte.ncpdp'));
    if (!outcome.ok || outcome.message.format !== 'telecom') throw new Error('expected a telecom message');
    expect(outcome.message.direction).toBe('response');
    expect(outcome.message.segments.map((s) => s.id)).toEqual(['21', '24']);
    expect(outcome.message.segments[0].fields).toEqual([expect.objectContaining({ id: 'AN', value: 'P' })]);
  });

  it('compatibility mode turns the version-attribute and unknown-field findings into warnings', () => {
    expect(errorsOf('SCRIPT_Status__cosyte.xml', 'compatibility')).toEqual(['REQUIRED_FIELD_MISSING Header.SenderSoftware']);
    const dur = validateNcpdp(read('TELECOM_D0_response_DUR__cosyte.ncpdp'), { mode: 'compatibility' });
    expect(dur.warnings.map((w) => `${w.code} ${w.field}`)).toEqual(['UNKNOWN_ELEMENT AM24.8E']);
  });
});
