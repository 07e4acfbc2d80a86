/**
 * Builds SCRIPT messages (NewRx, RxRenewalRequest, CancelRx, Status) for a scenario, in the 2017071/2023011
 * structure (HumanPatient, NonVeterinarian, Sig, the six version attributes) or the 10.6 structure (`version="010"
 * release="006"`, Directions, PotencyUnitCode, StoreName).
 */
import type { SyntheticAddress } from '../../synthetic-data/api.ts';
import { phoneDigits, type PrescriptionScenario } from '../generation/ncpdp-scenario.ts';
import { SCRIPT_NAMESPACE, VERSION_ATTRIBUTES, VERSION_ATTRIBUTE_VALUES, type ScriptVersion } from './script-definitions.ts';
import { el, group, renderXmlDocument, type XmlNode } from './script-xml-writer.ts';

/** SCRIPT transactions the generator writes. */
export const GENERATED_SCRIPT_TYPES = ['NewRx', 'RxRenewalRequest', 'CancelRx', 'Status'] as const;
/** One of {@link GENERATED_SCRIPT_TYPES}. */
export type GeneratedScriptType = (typeof GENERATED_SCRIPT_TYPES)[number];

function messageAttributes(version: ScriptVersion): Record<string, string> {
  if (version === '10.6') return { xmlns: SCRIPT_NAMESPACE, version: '010', release: '006' };
  const value = VERSION_ATTRIBUTE_VALUES[version];
  const attributes: Record<string, string> = { xmlns: SCRIPT_NAMESPACE };
  for (const name of VERSION_ATTRIBUTES) attributes[name] = name === 'TransactionDomain' ? 'SCRIPT' : value;
  return attributes;
}

function address(a: SyntheticAddress, legacy: boolean): XmlNode {
  return legacy
    ? group('Address', [el('AddressLine1', a.line1), el('City', a.city), el('State', a.state), el('ZipCode', a.zip)])
    : group('Address', [el('AddressLine1', a.line1), el('City', a.city), el('StateProvince', a.state), el('PostalCode', a.zip), el('CountryCode', 'US')]);
}

function phone(digits: string, legacy: boolean): XmlNode {
  return legacy
    ? group('CommunicationNumbers', [group('Communication', [el('Number', digits), el('Qualifier', 'TE')])])
    : group('CommunicationNumbers', [group('PrimaryTelephone', [el('Number', digits)])]);
}

function patient(s: PrescriptionScenario, legacy: boolean): XmlNode {
  const p = s.patient;
  const inner = [
    group('Identification', [el('SocialSecurity', p.ssn.replace(/-/g, ''))]),
    group('Name', [el('LastName', p.familyName), el('FirstName', p.givenName), el('MiddleName', p.middleName)]),
    el('Gender', p.sex),
    group('DateOfBirth', [el('Date', p.birthDate)]),
    address(p.address, legacy),
    phone(phoneDigits(p.phone), legacy),
  ];
  return legacy ? group('Patient', inner) : group('Patient', [group('HumanPatient', inner)]);
}

function prescriber(s: PrescriptionScenario, legacy: boolean): XmlNode {
  const c = s.prescriber;
  const inner = [
    group('Identification', [el('NPI', c.npi), el('DEANumber', c.dea)]),
    group('Name', [el('LastName', c.familyName), el('FirstName', c.givenName)]),
    address(c.address, legacy),
    phone(c.phoneDigits, legacy),
  ];
  return legacy ? group('Prescriber', inner) : group('Prescriber', [group('NonVeterinarian', inner)]);
}

function pharmacy(s: PrescriptionScenario, legacy: boolean): XmlNode {
  const p = s.pharmacy;
  return group('Pharmacy', [
    group('Identification', [el('NCPDPID', p.ncpdpId), el('NPI', p.npi)]),
    el(legacy ? 'StoreName' : 'BusinessName', p.name),
    address(p.address, legacy),
    phone(p.phone, legacy),
  ]);
}

function medication(s: PrescriptionScenario, legacy: boolean, name = 'MedicationPrescribed'): XmlNode {
  const d = s.drug;
  if (legacy) {
    return group(name, [
      el('DrugDescription', d.description),
      group('DrugCoded', [el('ProductCode', d.ndc), el('ProductCodeQualifier', 'ND')]),
      group('Quantity', [el('Value', String(d.quantity)), el('CodeListQualifier', '38'), el('UnitSourceCode', 'AC'), el('PotencyUnitCode', d.unitCode)]),
      el('DaysSupply', String(d.daysSupply)),
      el('Directions', d.sig),
      group('Refills', [el('Qualifier', 'R'), el('Value', String(s.refills))]),
      el('Substitutions', '0'),
      group('WrittenDate', [el('Date', s.writtenDate)]),
    ]);
  }
  return group(name, [
    el('DrugDescription', d.description),
    group('DrugCoded', [group('ProductCode', [el('Code', d.ndc), el('Qualifier', 'ND')])]),
    group('Quantity', [el('Value', String(d.quantity)), el('CodeListQualifier', '38'), group('QuantityUnitOfMeasure', [el('Code', d.unitCode)])]),
    el('DaysSupply', String(d.daysSupply)),
    group('WrittenDate', [el('Date', s.writtenDate)]),
    el('Substitutions', '0'),
    el('NumberOfRefills', String(s.refills)),
    group('Sig', [el('SigText', d.sig)]),
  ]);
}

function header(s: PrescriptionScenario, type: GeneratedScriptType, legacy: boolean): XmlNode {
  // NewRx and CancelRx go prescriber -> pharmacy; renewal requests and status answers go pharmacy -> prescriber.
  const toPharmacy = type === 'NewRx' || type === 'CancelRx';
  const pharmacyId = s.pharmacy.ncpdpId;
  const prescriberId = s.prescriber.npi;
  return group('Header', [
    el('To', toPharmacy ? pharmacyId : prescriberId, { Qualifier: toPharmacy ? 'P' : 'D' }),
    el('From', toPharmacy ? prescriberId : pharmacyId, { Qualifier: toPharmacy ? 'D' : 'P' }),
    el('MessageID', s.messageId),
    type === 'Status' || type === 'CancelRx' ? el('RelatesToMessageID', s.relatesToMessageId) : undefined,
    el('SentTime', s.sentTime),
    legacy
      ? undefined
      : group('SenderSoftware', [
          el('SenderSoftwareDeveloper', 'Healthcare Integration Workbench'),
          el('SenderSoftwareProduct', 'Synthetic Message Generator'),
          el('SenderSoftwareVersionRelease', '0.1.0'),
        ]),
    type === 'Status' ? undefined : el('PrescriberOrderNumber', s.prescriberOrderNumber),
  ]);
}

function transaction(s: PrescriptionScenario, type: GeneratedScriptType, legacy: boolean): XmlNode {
  switch (type) {
    case 'NewRx':
      return group('NewRx', [patient(s, legacy), pharmacy(s, legacy), prescriber(s, legacy), medication(s, legacy)]);
    case 'RxRenewalRequest':
      return group('RxRenewalRequest', [patient(s, legacy), pharmacy(s, legacy), prescriber(s, legacy), medication(s, legacy), medication(s, legacy, 'MedicationDispensed')]);
    case 'CancelRx':
      return group('CancelRx', [patient(s, legacy), pharmacy(s, legacy), prescriber(s, legacy), medication(s, legacy)]);
    case 'Status':
      return group('Status', [el('Code', '000')]);
  }
}

/** One SCRIPT message of the given type and version for the scenario. */
export function buildScriptMessage(s: PrescriptionScenario, type: GeneratedScriptType, version: ScriptVersion): string {
  const legacy = version === '10.6';
  return renderXmlDocument(group('Message', [header(s, type, legacy), group('Body', [transaction(s, type, legacy)])], messageAttributes(version)));
}
