/**
 * What this plugin knows of Telecommunication D.0, written from public facts of the standard (field numbers and
 * ids of the NCPDP Data Dictionary, segment codes of 111-AM, the fixed header layout, formats): the transaction
 * header, every field modelled with its format and width, the segments with the fields each may hold, the
 * segments and fields required per transaction code, and the few code lists checked.
 */

/** Field formats: N digits, A alphanumeric, D date CCYYMMDD, S signed overpunch amount s9(n)v99, Q quantity 9(7)v999. */
export type TelecomFormat = 'N' | 'A' | 'D' | 'S' | 'Q';

/** One field of the data dictionary. */
export interface TelecomFieldDefinition {
  id: string;
  /** Data dictionary number (`402` of 402-D2). */
  number: string;
  name: string;
  format: TelecomFormat;
  maxLength: number;
  /** Code list, when this plugin checks one. */
  table?: Record<string, string>;
}

/** Header fields in position order: id, dictionary number, name, width. */
export interface TelecomHeaderDefinition {
  id: string;
  number: string;
  name: string;
  length: number;
  format: TelecomFormat;
  /** Space-filled when the processor does not use it (PCN, software vendor/certification ID). */
  blankAllowed?: boolean;
}

/** Request transaction header (56 characters). */
export const REQUEST_HEADER: readonly TelecomHeaderDefinition[] = [
  { id: 'A1', number: '101', name: 'BIN Number', length: 6, format: 'N' },
  { id: 'A2', number: '102', name: 'Version/Release Number', length: 2, format: 'A' },
  { id: 'A3', number: '103', name: 'Transaction Code', length: 2, format: 'A' },
  { id: 'A4', number: '104', name: 'Processor Control Number', length: 10, format: 'A', blankAllowed: true },
  { id: 'A9', number: '109', name: 'Transaction Count', length: 1, format: 'N' },
  { id: 'B2', number: '202', name: 'Service Provider ID Qualifier', length: 2, format: 'A' },
  { id: 'B1', number: '201', name: 'Service Provider ID', length: 15, format: 'A' },
  { id: 'D1', number: '401', name: 'Date of Service', length: 8, format: 'D' },
  { id: 'AK', number: '110', name: 'Software Vendor/Certification ID', length: 10, format: 'A', blankAllowed: true },
];

/** Response transaction header (31 characters). */
export const RESPONSE_HEADER: readonly TelecomHeaderDefinition[] = [
  { id: 'A2', number: '102', name: 'Version/Release Number', length: 2, format: 'A' },
  { id: 'A3', number: '103', name: 'Transaction Code', length: 2, format: 'A' },
  { id: 'A9', number: '109', name: 'Transaction Count', length: 1, format: 'N' },
  { id: 'F1', number: '501', name: 'Header Response Status', length: 1, format: 'A' },
  { id: 'B2', number: '202', name: 'Service Provider ID Qualifier', length: 2, format: 'A' },
  { id: 'B1', number: '201', name: 'Service Provider ID', length: 15, format: 'A' },
  { id: 'D1', number: '401', name: 'Date of Service', length: 8, format: 'D' },
];

/** The version this plugin reads (`D0` in 102-A2). */
export const TELECOM_VERSION = 'D0';

/** Transaction codes (103-A3) of D.0; required-content rules exist for B1, B2, B3 and E1. */
export const TRANSACTION_CODES: Record<string, string> = {
  B1: 'Billing',
  B2: 'Reversal',
  B3: 'Rebill',
  E1: 'Eligibility verification',
  N1: 'Information reporting',
  N2: 'Information reporting reversal',
  N3: 'Information reporting rebill',
  P1: 'Prior authorization request and billing',
  P2: 'Prior authorization reversal',
  P3: 'Prior authorization inquiry',
  P4: 'Prior authorization request only',
  C1: 'Controlled substance reporting',
  C2: 'Controlled substance reporting reversal',
  C3: 'Controlled substance reporting rebill',
  S1: 'Service billing',
  S2: 'Service reversal',
  S3: 'Service rebill',
};

/** Service Provider ID Qualifier (202-B2) values. */
export const SERVICE_PROVIDER_ID_QUALIFIERS: Record<string, string> = {
  '01': 'National Provider Identifier (NPI)',
  '05': 'Medicaid',
  '07': 'NCPDP Provider ID',
  '99': 'Other',
};

/** Header Response Status (501-F1). */
export const HEADER_RESPONSE_STATUS: Record<string, string> = { A: 'Accepted', R: 'Rejected' };

const GENDER = { '0': 'Not specified', '1': 'Male', '2': 'Female' };
const RELATIONSHIP = { '0': 'Not specified', '1': 'Cardholder', '2': 'Spouse', '3': 'Child', '4': 'Other' };
const COMPOUND = { '0': 'Not specified', '1': 'Not a compound', '2': 'Compound' };
const DAW = Object.fromEntries([...'0123456789'].map((d) => [d, `Product selection code ${d}`]));
const RX_QUALIFIER = { '1': 'Rx billing', '2': 'Service billing' };
const ORIGIN = { '0': 'Not known', '1': 'Written', '2': 'Telephone', '3': 'Electronic', '4': 'Facsimile', '5': 'Pharmacy' };
const RESPONSE_STATUS = {
  P: 'Paid',
  D: 'Duplicate of paid',
  R: 'Rejected',
  C: 'Captured',
  F: 'PA deferred',
  Q: 'Duplicate of capture',
  A: 'Approved',
  S: 'Duplicate of approved',
};

/** Rows: id|number|name|format|width. Kept as text so the dictionary reads like the data dictionary it mirrors. */
const FIELD_ROWS = `
AM|111|Segment Identification|A|2
CX|331|Patient ID Qualifier|A|2
CY|332|Patient ID|A|20
C4|304|Date of Birth|D|8
C5|305|Patient Gender Code|N|1
CA|310|Patient First Name|A|12
CB|311|Patient Last Name|A|15
CM|322|Patient Street Address|A|30
CN|323|Patient City Address|A|20
CO|324|Patient State/Province Address|A|2
CP|325|Patient ZIP/Postal Zone|A|15
CQ|326|Patient Phone Number|N|10
C7|307|Place of Service|N|2
CZ|333|Employer ID|A|15
2C|335|Pregnancy Indicator|A|1
HN|350|Patient E-Mail Address|A|80
4X|384|Patient Residence|N|2
C2|302|Cardholder ID|A|20
CC|312|Cardholder First Name|A|12
CD|313|Cardholder Last Name|A|15
CE|314|Home Plan|A|3
FO|524|Plan ID|A|8
C9|309|Eligibility Clarification Code|N|1
C1|301|Group ID|A|15
C3|303|Person Code|A|3
C6|306|Patient Relationship Code|N|1
2A|359|Medigap ID|A|20
2B|360|Medicaid Indicator|A|2
2D|361|Provider Accept Assignment Indicator|A|1
G2|997|CMS Part D Defined Qualified Facility|A|1
N5|115|Medicaid ID Number|A|20
N6|116|Medicaid Agency Number|A|15
EY|465|Provider ID Qualifier|A|2
E9|444|Provider ID|A|15
EZ|466|Prescriber ID Qualifier|A|2
DB|411|Prescriber ID|A|15
1E|467|Prescriber Location Code|N|3
DR|427|Prescriber Last Name|A|15
2J|364|Prescriber First Name|A|12
PM|498|Prescriber Phone Number|N|10
2E|468|Primary Care Provider ID Qualifier|A|2
DL|421|Primary Care Provider ID|A|15
4E|470|Primary Care Provider Last Name|A|15
2K|365|Prescriber Street Address|A|30
2M|366|Prescriber City Address|A|20
2N|367|Prescriber State/Province Address|A|2
2P|368|Prescriber ZIP/Postal Zone|A|15
4C|337|Coordination of Benefits/Other Payments Count|N|1
5C|338|Other Payer Coverage Type|A|2
6C|339|Other Payer ID Qualifier|A|2
7C|340|Other Payer ID|A|10
E8|443|Other Payer Date|D|8
A7|993|Internal Control Number|A|30
HB|341|Other Payer Amount Paid Count|N|1
HC|342|Other Payer Amount Paid Qualifier|A|2
DV|431|Other Payer Amount Paid|S|10
5E|471|Other Payer Reject Count|N|2
6E|472|Other Payer Reject Code|A|3
EM|455|Prescription/Service Reference Number Qualifier|A|1
D2|402|Prescription/Service Reference Number|N|12
E1|436|Product/Service ID Qualifier|A|2
D7|407|Product/Service ID|A|19
EN|456|Associated Prescription/Service Reference Number|N|12
EP|457|Associated Prescription/Service Date|D|8
SE|458|Procedure Modifier Code Count|N|1
ER|459|Procedure Modifier Code|A|2
E7|442|Quantity Dispensed|Q|10
D3|403|Fill Number|N|2
D5|405|Days Supply|N|3
D6|406|Compound Code|N|1
D8|408|Dispense As Written (DAW)/Product Selection Code|A|1
DE|414|Date Prescription Written|D|8
DF|415|Number of Refills Authorized|N|2
DJ|419|Prescription Origin Code|N|1
NX|354|Submission Clarification Code Count|N|1
DK|420|Submission Clarification Code|N|2
ET|460|Quantity Prescribed|Q|10
C8|308|Other Coverage Code|N|2
DT|429|Special Packaging Indicator|N|1
EJ|453|Originally Prescribed Product/Service ID Qualifier|A|2
EA|445|Originally Prescribed Product/Service Code|A|19
EB|446|Originally Prescribed Quantity|Q|10
DI|418|Level of Service|N|2
EU|461|Prior Authorization Type Code|N|2
EV|462|Prior Authorization Number Submitted|N|11
EK|454|Scheduled Prescription ID Number|A|12
28|600|Unit of Measure|A|2
MT|391|Patient Assignment Indicator|A|1
E2|995|Route of Administration|A|11
G1|996|Compound Type|A|2
U7|147|Pharmacy Service Type|N|2
NV|357|Delay Reason Code|N|2
D9|409|Ingredient Cost Submitted|S|8
DC|412|Dispensing Fee Submitted|S|8
BE|477|Professional Service Fee Submitted|S|8
DX|433|Patient Paid Amount Submitted|S|8
E3|438|Incentive Amount Submitted|S|8
H7|478|Other Amount Claimed Submitted Count|N|1
H8|479|Other Amount Claimed Submitted Qualifier|A|2
H9|480|Other Amount Claimed Submitted|S|8
HA|481|Flat Sales Tax Amount Submitted|S|8
GE|482|Percentage Sales Tax Amount Submitted|S|8
HE|483|Percentage Sales Tax Rate Submitted|A|7
JE|484|Percentage Sales Tax Basis Submitted|A|2
DQ|426|Usual and Customary Charge|S|8
DU|430|Gross Amount Due|S|8
DN|423|Basis of Cost Determination|A|2
7E|473|DUR/PPS Code Counter|N|1
E4|439|Reason for Service Code|A|2
E5|440|Professional Service Code|A|2
E6|441|Result of Service Code|A|2
8E|474|DUR/PPS Level of Effort|N|2
J9|475|DUR Co-Agent ID Qualifier|A|2
H6|476|DUR Co-Agent ID|A|19
EF|450|Compound Dosage Form Description Code|A|2
EG|451|Compound Dispensing Unit Form Indicator|N|1
EC|447|Compound Ingredient Component Count|N|2
RE|488|Compound Product ID Qualifier|A|2
TE|489|Compound Product ID|A|19
ED|448|Compound Ingredient Quantity|Q|10
EE|449|Compound Ingredient Drug Cost|S|8
UE|490|Compound Ingredient Basis of Cost Determination|A|2
VE|491|Diagnosis Code Count|N|1
WE|492|Diagnosis Code Qualifier|A|2
DO|424|Diagnosis Code|A|15
XE|493|Clinical Information Counter|N|1
ZE|494|Measurement Date|D|8
H1|495|Measurement Time|N|4
H2|496|Measurement Dimension|A|2
H3|497|Measurement Unit|A|2
H4|499|Measurement Value|A|15
F4|504|Message|A|200
AN|112|Transaction Response Status|A|1
F3|503|Authorization Number|A|20
FA|510|Reject Count|N|2
FB|511|Reject Code|A|3
4F|546|Reject Field Occurrence Indicator|N|2
5F|547|Approved Message Code Count|N|1
6F|548|Approved Message Code|A|3
UF|130|Additional Message Information Count|N|2
UH|132|Additional Message Information Qualifier|A|2
FQ|526|Additional Message Information|A|40
UG|131|Additional Message Information Continuity|A|1
7F|549|Help Desk Phone Number Qualifier|A|2
8F|550|Help Desk Phone Number|A|18
K5|880|Transaction Reference Number|A|10
9F|551|Preferred Product Count|N|1
AP|552|Preferred Product ID Qualifier|A|2
AR|553|Preferred Product ID|A|19
AS|554|Preferred Product Incentive|S|8
AT|555|Preferred Product Cost Share Incentive|S|8
AU|556|Preferred Product Description|A|40
F5|505|Patient Pay Amount|S|10
F6|506|Ingredient Cost Paid|S|10
F7|507|Dispensing Fee Paid|S|10
AV|557|Tax Exempt Indicator|A|1
AW|558|Flat Sales Tax Amount Paid|S|10
AX|559|Percentage Sales Tax Amount Paid|S|10
FL|521|Incentive Amount Paid|S|10
J1|562|Professional Service Fee Paid|S|10
J2|563|Other Amount Paid Count|N|1
J3|564|Other Amount Paid Qualifier|A|2
J4|565|Other Amount Paid|S|10
J5|566|Other Payer Amount Recognized|S|10
F9|509|Total Amount Paid|S|10
FM|522|Basis of Reimbursement Determination|N|2
FN|523|Amount Attributed to Sales Tax|S|10
FC|512|Accumulated Deductible Amount|S|10
FD|513|Remaining Deductible Amount|S|10
FE|514|Remaining Benefit Amount|S|10
FH|517|Amount Applied to Periodic Deductible|S|10
FI|518|Amount of Copay|S|10
FK|520|Amount Exceeding Periodic Benefit Maximum|S|10
J6|567|DUR/PPS Response Code Counter|N|1
FS|528|Clinical Significance Code|A|1
FT|529|Other Pharmacy Indicator|N|1
FU|530|Previous Date of Fill|D|8
FV|531|Quantity of Previous Fill|Q|10
FW|532|Database Indicator|A|1
FX|533|Other Prescriber Indicator|N|1
FY|544|DUR Free Text Message|A|30
NS|570|DUR Additional Text|A|100
2F|545|Network Reimbursement ID|A|10
J7|568|Payer ID Qualifier|A|2
J8|569|Payer ID|A|10
`;

const TABLES: Record<string, Record<string, string>> = {
  C5: GENDER,
  C6: RELATIONSHIP,
  D6: COMPOUND,
  D8: DAW,
  EM: RX_QUALIFIER,
  DJ: ORIGIN,
  AN: RESPONSE_STATUS,
};

/** Every field modelled, by two-character id. */
export const TELECOM_FIELDS: ReadonlyMap<string, TelecomFieldDefinition> = new Map(
  FIELD_ROWS.trim()
    .split('\n')
    .map((row) => {
      const [id, number, name, format, width] = row.split('|');
      const table = TABLES[id];
      return [id, { id, number, name, format: format as TelecomFormat, maxLength: Number(width), ...(table ? { table } : {}) }];
    }),
);

/** A segment: code, name, level and the fields it may hold (fields after a counter may repeat). */
export interface TelecomSegmentDefinition {
  id: string;
  name: string;
  direction: 'request' | 'response';
  /** Transmission-level segments come before the first group separator; transaction-level ones inside a group. */
  level: 'transmission' | 'transaction';
  fields: readonly string[];
  /** Fields that may occur more than once (repetitions driven by a counter field). */
  repeating: readonly string[];
}

function segment(
  id: string,
  name: string,
  direction: 'request' | 'response',
  level: 'transmission' | 'transaction',
  fields: string,
  repeating = '',
): TelecomSegmentDefinition {
  return { id, name, direction, level, fields: fields.split(' '), repeating: repeating ? repeating.split(' ') : [] };
}

/** Segments by 111-AM code. */
export const TELECOM_SEGMENTS: ReadonlyMap<string, TelecomSegmentDefinition> = new Map(
  [
    segment('01', 'Patient', 'request', 'transmission', 'CX CY C4 C5 CA CB CM CN CO CP CQ C7 CZ 2C HN 4X'),
    segment('04', 'Insurance', 'request', 'transmission', 'C2 CC CD CE FO C9 C1 C3 C6 2A 2B 2D G2 N5 N6'),
    segment('02', 'Pharmacy Provider', 'request', 'transaction', 'EY E9'),
    segment('03', 'Prescriber', 'request', 'transaction', 'EZ DB 1E DR 2J PM 2E DL 4E 2K 2M 2N 2P'),
    segment('05', 'Coordination of Benefits/Other Payments', 'request', 'transaction', '4C 5C 6C 7C E8 A7 HB HC DV 5E 6E', '5C 6C 7C E8 A7 HB HC DV 5E 6E'),
    segment('07', 'Claim', 'request', 'transaction', 'EM D2 E1 D7 EN EP SE ER E7 D3 D5 D6 D8 DE DF DJ NX DK ET C8 DT EJ EA EB DI EU EV EK 28 MT E2 G1 U7 NV', 'ER DK'),
    segment('08', 'DUR/PPS', 'request', 'transaction', '7E E4 E5 E6 8E J9 H6', '7E E4 E5 E6 8E J9 H6'),
    segment('10', 'Compound', 'request', 'transaction', 'EF EG EC RE TE ED EE UE', 'RE TE ED EE UE'),
    segment('11', 'Pricing', 'request', 'transaction', 'D9 DC BE DX E3 H7 H8 H9 HA GE HE JE DQ DU DN', 'H8 H9'),
    segment('13', 'Clinical', 'request', 'transaction', 'VE WE DO XE ZE H1 H2 H3 H4', 'WE DO XE ZE H1 H2 H3 H4'),
    segment('20', 'Response Message', 'response', 'transmission', 'F4'),
    segment('25', 'Response Insurance', 'response', 'transmission', 'C1 FO 2F J7 J8 C2'),
    segment('29', 'Response Patient', 'response', 'transmission', 'CA CB C4'),
    segment('21', 'Response Status', 'response', 'transaction', 'AN F3 FA FB 4F 5F 6F UF UH FQ UG 7F 8F K5 A7', 'FB 4F 6F UH FQ UG'),
    segment('22', 'Response Claim', 'response', 'transaction', 'EM D2 9F AP AR AS AT AU', 'AP AR AS AT AU'),
    segment('23', 'Response Pricing', 'response', 'transaction', 'F5 F6 F7 AV AW AX FL J1 J2 J3 J4 J5 F9 FM FN FC FD FE FH FI FK', 'J3 J4'),
    segment('24', 'Response DUR/PPS', 'response', 'transaction', 'J6 E4 FS FT FU FV FW FX FY NS', 'J6 E4 FS FT FU FV FW FX FY NS'),
  ].map((definition) => [definition.id, definition]),
);

/** Segments a request must carry per transaction code. */
export const REQUIRED_REQUEST_SEGMENTS: Record<string, readonly string[]> = {
  B1: ['04', '07', '11'],
  B3: ['04', '07', '11'],
  B2: ['07'],
  E1: ['04'],
};

/** Segments each response transaction must carry. */
export const REQUIRED_RESPONSE_SEGMENTS: readonly string[] = ['21'];

/** Required fields per transaction code and segment (a segment's rules apply when the segment is present). */
export const REQUIRED_FIELDS: Record<string, Record<string, readonly string[]>> = {
  B1: {
    '04': ['C2'],
    '07': ['EM', 'D2', 'E1', 'D7', 'E7', 'D3', 'D5', 'D6', 'D8', 'DE'],
    '11': ['D9', 'DU'],
    '02': ['EY', 'E9'],
    '03': ['EZ', 'DB'],
  },
  B2: { '07': ['EM', 'D2', 'E1', 'D7', 'D3'], '02': ['EY', 'E9'] },
  E1: { '04': ['C2'] },
  response: { '20': ['F4'], '21': ['AN'], '22': ['EM', 'D2'], '24': ['J6'] },
};
REQUIRED_FIELDS.B3 = REQUIRED_FIELDS.B1;

/** ID qualifier values that name an NPI (Prescriber ID Qualifier 466-EZ, Provider ID Qualifier 465-EY, 202-B2). */
export const NPI_QUALIFIER = '01';
/** Prescriber ID Qualifier value that names a DEA number. */
export const DEA_QUALIFIER = '12';
/** Product/Service ID Qualifier value that names an NDC. */
export const NDC_QUALIFIER = '03';
