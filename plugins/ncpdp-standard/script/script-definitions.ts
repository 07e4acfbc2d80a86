/**
 * What this plugin knows of SCRIPT, written from public facts of the standard (the NCPDP XML schemas themselves
 * are licensed and not shipped): the namespace, how versions are declared, the Header element order, the
 * transactions a Body may hold, the elements each checked transaction requires, code lists and element lengths
 * published in public implementation material. README.md says how deep each check goes.
 */

/** Namespace of SCRIPT XML (10.x and 2017071 onwards). */
export const SCRIPT_NAMESPACE = 'http://www.ncpdp.org/schema/SCRIPT';

/** SCRIPT versions this plugin validates and generates. */
export const SCRIPT_VERSIONS = ['10.6', '2017071', '2023011'] as const;
/** One of {@link SCRIPT_VERSIONS}. */
export type ScriptVersion = (typeof SCRIPT_VERSIONS)[number];

/** The six version attributes 2017071 and later carry on `Message`. */
export const VERSION_ATTRIBUTES = [
  'DatatypesVersion',
  'TransportVersion',
  'TransactionDomain',
  'TransactionVersion',
  'StructuresVersion',
  'ECLVersion',
] as const;

/** Attribute values the generator writes for each version (YYYYMM + release, as the 2017071 schemas publish). */
export const VERSION_ATTRIBUTE_VALUES: Record<Exclude<ScriptVersion, '10.6'>, string> = {
  '2017071': '20170715',
  '2023011': '20230115',
};

/** Known Header children in schema order (elements after SenderSoftware are optional and rarely used). */
export const HEADER_ORDER = [
  'To',
  'From',
  'MessageID',
  'RelatesToMessageID',
  'SentTime',
  'SMSVersion',
  'Security',
  'SenderSoftware',
  'Mailbox',
  'TestMessage',
  'RxReferenceNumber',
  'PrescriberOrderNumber',
  'TertiaryIdentifier',
  'DigitalSignature',
  'PrescriberOrderGroup',
  'RxReferenceOrderGroup',
] as const;

/** Header children every version requires. */
export const HEADER_REQUIRED: Record<ScriptVersion, readonly string[]> = {
  '10.6': ['To', 'From', 'MessageID', 'SentTime'],
  '2017071': ['To', 'From', 'MessageID', 'SentTime', 'SenderSoftware'],
  '2023011': ['To', 'From', 'MessageID', 'SentTime', 'SenderSoftware'],
};

/** Transactions whose content rules are checked (README: "messages checked in depth"). */
export const CHECKED_TRANSACTIONS = [
  'NewRx',
  'RxRenewalRequest',
  'RxRenewalResponse',
  'RxChangeRequest',
  'RxChangeResponse',
  'CancelRx',
  'CancelRxResponse',
  'RxFill',
  'Status',
  'Error',
  'Verify',
] as const;

/** Further SCRIPT transactions recognised in a Body; only the envelope (Message, Header, Body) is checked for them. */
export const OTHER_TRANSACTIONS = [
  'NewRxRequest',
  'NewRxResponseDenied',
  'RxHistoryRequest',
  'RxHistoryResponse',
  'RxTransferRequest',
  'RxTransferResponse',
  'RxTransferConfirm',
  'RxFillIndicatorChange',
  'Census',
  'Resupply',
  'DrugAdministration',
  'GetMessage',
  'PAInitiationRequest',
  'PAInitiationResponse',
  'PARequest',
  'PAResponse',
  'PAAppealRequest',
  'PAAppealResponse',
  'PACancelRequest',
  'PACancelResponse',
  'REMSInitiationRequest',
  'REMSInitiationResponse',
  'REMSRequest',
  'REMSResponse',
  'Recertification',
  'ClinicalInfoRequest',
  'ClinicalInfoResponse',
] as const;

/**
 * Required elements, as paths below the transaction. A rule is only checked when its parent is present, so a
 * missing Patient is reported once and not once per Patient child. `A|B` in the last step means "one of".
 */
type RequirementList = readonly string[];

const PATIENT_2017: RequirementList = [
  'Patient',
  'Patient.HumanPatient|NonHumanPatient',
  'Patient.HumanPatient.Name',
  'Patient.HumanPatient.Name.LastName',
  'Patient.HumanPatient.Name.FirstName',
  'Patient.HumanPatient.Gender',
  'Patient.HumanPatient.DateOfBirth',
  'Patient.HumanPatient.DateOfBirth.Date|DateTime',
];
const PRESCRIBER_2017: RequirementList = [
  'Prescriber',
  'Prescriber.NonVeterinarian|Veterinarian',
  'Prescriber.NonVeterinarian.Identification',
  'Prescriber.NonVeterinarian.Name',
  'Prescriber.NonVeterinarian.Name.LastName',
  'Prescriber.NonVeterinarian.Name.FirstName',
  'Prescriber.Veterinarian.Identification',
  'Prescriber.Veterinarian.Name',
  'Prescriber.Veterinarian.Name.LastName',
];
const PHARMACY_IF_PRESENT_2017: RequirementList = ['Pharmacy.Identification', 'Pharmacy.BusinessName'];
const MEDICATION_2017: RequirementList = [
  'MedicationPrescribed',
  'MedicationPrescribed.DrugDescription',
  'MedicationPrescribed.Quantity',
  'MedicationPrescribed.Quantity.Value',
  'MedicationPrescribed.Quantity.CodeListQualifier',
  'MedicationPrescribed.Quantity.QuantityUnitOfMeasure',
  'MedicationPrescribed.Quantity.QuantityUnitOfMeasure.Code',
  'MedicationPrescribed.WrittenDate',
  'MedicationPrescribed.WrittenDate.Date|DateTime',
  'MedicationPrescribed.Sig',
  'MedicationPrescribed.Sig.SigText',
];
const PATIENT_10: RequirementList = [
  'Patient',
  'Patient.Name',
  'Patient.Name.LastName',
  'Patient.Name.FirstName',
  'Patient.Gender',
  'Patient.DateOfBirth',
  'Patient.DateOfBirth.Date',
];
const PRESCRIBER_10: RequirementList = [
  'Prescriber',
  'Prescriber.Identification',
  'Prescriber.Name',
  'Prescriber.Name.LastName',
  'Prescriber.Name.FirstName',
];
const PHARMACY_IF_PRESENT_10: RequirementList = ['Pharmacy.Identification', 'Pharmacy.StoreName'];
const MEDICATION_10: RequirementList = [
  'MedicationPrescribed',
  'MedicationPrescribed.DrugDescription',
  'MedicationPrescribed.Quantity',
  'MedicationPrescribed.Quantity.Value',
  'MedicationPrescribed.Quantity.CodeListQualifier',
  'MedicationPrescribed.Quantity.PotencyUnitCode',
  'MedicationPrescribed.WrittenDate',
  'MedicationPrescribed.WrittenDate.Date',
  'MedicationPrescribed.Directions',
];

const RESPONSE: RequirementList = ['Response', 'Response.Approved|ApprovedWithChanges|Denied|DeniedNewPrescriptionToFollow|Replace|Validated'];

/** Requirements of one version family for each checked transaction. */
function requirementsFor(family: '10' | '2017'): Record<(typeof CHECKED_TRANSACTIONS)[number], RequirementList> {
  const patient = family === '10' ? PATIENT_10 : PATIENT_2017;
  const prescriber = family === '10' ? PRESCRIBER_10 : PRESCRIBER_2017;
  const pharmacyIfPresent = family === '10' ? PHARMACY_IF_PRESENT_10 : PHARMACY_IF_PRESENT_2017;
  const medication = family === '10' ? MEDICATION_10 : MEDICATION_2017;
  return {
    NewRx: [...patient, ...prescriber, ...pharmacyIfPresent, ...medication],
    RxRenewalRequest: [...patient, 'Pharmacy', ...pharmacyIfPresent, ...prescriber, 'MedicationDispensed|MedicationPrescribed'],
    RxRenewalResponse: [...RESPONSE, ...patient, ...prescriber],
    RxChangeRequest: [
      ...(family === '2017' ? ['MessageRequestCode'] : []),
      ...patient,
      'Pharmacy',
      ...pharmacyIfPresent,
      ...prescriber,
      'MedicationPrescribed',
      'MedicationPrescribed.DrugDescription',
    ],
    RxChangeResponse: [...RESPONSE, ...patient, ...prescriber],
    CancelRx: [...patient, ...prescriber, 'MedicationPrescribed', 'MedicationPrescribed.DrugDescription'],
    CancelRxResponse: RESPONSE,
    RxFill: ['FillStatus', ...patient, 'Pharmacy', ...pharmacyIfPresent, ...prescriber, 'MedicationPrescribed|MedicationDispensed'],
    Status: ['Code'],
    Error: ['Code'],
    Verify: ['VerifyStatus', 'VerifyStatus.Code'],
  };
}

/** Required elements per version and checked transaction. */
export const TRANSACTION_REQUIREMENTS: Record<ScriptVersion, Record<(typeof CHECKED_TRANSACTIONS)[number], RequirementList>> = {
  '10.6': requirementsFor('10'),
  '2017071': requirementsFor('2017'),
  '2023011': requirementsFor('2017'),
};

/** A code list a SCRIPT element draws from. */
export interface ScriptCodeList {
  name: string;
  codes: Record<string, string>;
}

/** Code lists checked, keyed by `Parent.Element` (the element's own name and its parent's). */
export const SCRIPT_CODE_LISTS: Record<string, ScriptCodeList> = {
  'Quantity.CodeListQualifier': {
    name: 'Quantity Qualifier',
    codes: {
      '38': 'Original quantity',
      '40': 'Remaining quantity',
      '87': 'Quantity received',
      CF: 'Compound final quantity',
      QS: 'Quantity sufficient',
      UQ: 'Unspecified quantity',
    },
  },
  'Error.Code': {
    name: 'Transaction error code',
    codes: { '600': 'Communication problem', '601': 'Receiver unable to process', '602': 'Receiver system error', '900': 'Transaction rejected' },
  },
  'RxChangeRequest.MessageRequestCode': {
    name: 'Change request type',
    codes: {
      G: 'Generic substitution',
      T: 'Therapeutic interchange',
      P: 'Prior authorization required',
      D: 'Drug use evaluation',
      S: 'Script clarification',
      OS: 'Out of stock',
      U: 'Prescriber authorization',
    },
  },
  'MedicationPrescribed.Substitutions': {
    name: 'Substitutions',
    codes: { '0': 'Substitution allowed', '1': 'Substitution not allowed by prescriber' },
  },
};

/** Patient gender codes per version (2023011 adds X). */
export const GENDER_CODES: Record<ScriptVersion, Record<string, string>> = {
  '10.6': { M: 'Male', F: 'Female', U: 'Unknown' },
  '2017071': { M: 'Male', F: 'Female', U: 'Unknown' },
  '2023011': { M: 'Male', F: 'Female', U: 'Unknown', X: 'Non-binary' },
};

/** Maximum lengths (characters) published for common elements; differences between versions are noted. */
export const SCRIPT_MAX_LENGTHS: Record<ScriptVersion, Record<string, number>> = {
  '10.6': { MessageID: 35, RelatesToMessageID: 35, LastName: 35, FirstName: 35, MiddleName: 35, DrugDescription: 105, Directions: 140, Note: 210 },
  '2017071': { MessageID: 35, RelatesToMessageID: 35, LastName: 35, FirstName: 35, MiddleName: 35, DrugDescription: 105, SigText: 1000, Note: 210 },
  '2023011': { MessageID: 35, RelatesToMessageID: 35, LastName: 35, FirstName: 35, MiddleName: 35, DrugDescription: 105, SigText: 1000, Note: 210 },
};

/** Human descriptions of SCRIPT elements, by element name (the last step of a path). */
export const SCRIPT_ELEMENTS: Record<string, { name: string; dataType?: string; description: string }> = {
  Message: { name: 'Message', description: 'Root of every SCRIPT message: Header then Body.' },
  version: { name: 'Version', dataType: 'attribute', description: 'SCRIPT version: 010 with release 006 (10.6), or 2017071 / 2023011 in shorthand form.' },
  release: { name: 'Release', dataType: 'attribute', description: 'SCRIPT 10.x release (006 for 10.6).' },
  DatatypesVersion: { name: 'Datatypes version', dataType: 'attribute', description: 'Version of the datatypes schema (2017071+: e.g. 20170715).' },
  TransportVersion: { name: 'Transport version', dataType: 'attribute', description: 'Version of the transport schema (2017071+).' },
  TransactionDomain: { name: 'Transaction domain', dataType: 'attribute', description: 'Always SCRIPT for SCRIPT messages (2017071+).' },
  TransactionVersion: { name: 'Transaction version', dataType: 'attribute', description: 'Version of the transaction schema; 20170715 is 2017071.' },
  StructuresVersion: { name: 'Structures version', dataType: 'attribute', description: 'Version of the structures schema (2017071+).' },
  ECLVersion: { name: 'External code list version', dataType: 'attribute', description: 'Version of the NCPDP External Code List in use (2017071+).' },
  Header: { name: 'Header', description: 'Routing and identification of the message: To, From, MessageID, SentTime...' },
  Body: { name: 'Body', description: 'Holds exactly one transaction (NewRx, Status, ...).' },
  To: { name: 'Recipient identifier', dataType: 'an..35', description: 'Identifier of the receiving party (pharmacy or prescriber mailbox).' },
  From: { name: 'Sender identifier', dataType: 'an..35', description: 'Identifier of the sending party.' },
  MessageID: { name: 'Message ID', dataType: 'an..35', description: 'Unique identifier the sender gives this message.' },
  RelatesToMessageID: { name: 'Relates-to message ID', dataType: 'an..35', description: 'MessageID of the message this one answers.' },
  SentTime: { name: 'Sent time', dataType: 'dateTime', description: 'When the sender sent the message (UTC).' },
  SenderSoftware: { name: 'Sender software', description: 'Developer, product and version of the sending system (required from 2017071).' },
  NewRx: { name: 'New prescription', description: 'A new prescription from the prescriber to the pharmacy.' },
  Patient: { name: 'Patient', description: 'The patient the prescription is for.' },
  HumanPatient: { name: 'Human patient', description: 'A human patient (2017071+; animals use NonHumanPatient).' },
  Prescriber: { name: 'Prescriber', description: 'The prescribing clinician.' },
  Pharmacy: { name: 'Pharmacy', description: 'The dispensing pharmacy.' },
  LastName: { name: 'Last name', dataType: 'an..35', description: 'Family name.' },
  FirstName: { name: 'First name', dataType: 'an..35', description: 'Given name.' },
  Gender: { name: 'Gender', dataType: 'code', description: 'M, F or U (2023011 adds X).' },
  DateOfBirth: { name: 'Date of birth', description: 'Holds Date (CCYY-MM-DD).' },
  Date: { name: 'Date', dataType: 'date CCYY-MM-DD', description: 'A calendar date.' },
  DateTime: { name: 'Date-time', dataType: 'dateTime', description: 'A date and time.' },
  NPI: { name: 'National Provider Identifier', dataType: 'n10', description: '10 digits; the last is a Luhn check digit over 80840 and the first nine.' },
  DEANumber: { name: 'DEA registration number', dataType: 'an9', description: 'Two letters and seven digits; the last is a check digit.' },
  MedicationPrescribed: { name: 'Medication prescribed', description: 'The drug, quantity, directions and dates of the prescription.' },
  DrugDescription: { name: 'Drug description', dataType: 'an..105', description: 'Full drug name, strength and form.' },
  ProductCode: { name: 'Product code', description: 'Drug code; with qualifier ND an 11-digit NDC.' },
  Quantity: { name: 'Quantity', description: 'Value, code list qualifier and unit of measure.' },
  Value: { name: 'Quantity value', dataType: 'decimal', description: 'Quantity prescribed.' },
  CodeListQualifier: { name: 'Quantity qualifier', dataType: 'code', description: '38 original quantity, 40 remaining, 87 received, CF, QS, UQ.' },
  QuantityUnitOfMeasure: { name: 'Quantity unit of measure', description: 'NCI code (C48542 tablet, C48480 capsule...).' },
  PotencyUnitCode: { name: 'Potency unit code', description: '10.6 quantity unit: NCI code (C48542 tablet...).' },
  DaysSupply: { name: 'Days supply', dataType: 'n..3', description: 'Days the quantity lasts.' },
  WrittenDate: { name: 'Written date', description: 'Date the prescription was written.' },
  Sig: { name: 'Directions (Sig)', description: 'Directions for use: SigText and optional structured Sig.' },
  SigText: { name: 'Sig text', dataType: 'an..1000', description: 'Free-text directions for use.' },
  Directions: { name: 'Directions', dataType: 'an..140', description: '10.6 free-text directions for use.' },
  NumberOfRefills: { name: 'Number of refills', dataType: 'n..2', description: 'Refills authorised.' },
  Substitutions: { name: 'Substitutions', dataType: 'code', description: '0 substitution allowed, 1 not allowed.' },
  Note: { name: 'Note', dataType: 'an..210', description: 'Free-text note to the pharmacist.' },
  Code: { name: 'Code', dataType: 'code', description: 'A coded value (Status 000/010, Error 600/601/602/900, NCI units...).' },
  Status: { name: 'Status', description: 'Acknowledges that a transaction was received.' },
  Error: { name: 'Error', description: 'Reports that a transaction could not be processed.' },
};
