import { describe, expect, it } from 'vitest';
import {
  getHl7Definitions,
  getHl7TableValues,
  HL7_VERSIONS,
  deriveHl7DefinedTables,
  deriveTwoStateConditionals,
  isHl7DefinedTable,
  keptHl7DefinedTables,
  keptTwoStateConditionals,
  isHl7TableValue,
  isSupportedVersion,
  nearestVersion,
} from '../../plugins/hl7-standard/hl7-definitions.ts';

describe('HL7 definitions', () => {
  it('knows the supported versions and the nearest one to any other', () => {
    expect(HL7_VERSIONS.every(isSupportedVersion)).toBe(true);
    expect(isSupportedVersion('2.2')).toBe(false);
    expect(nearestVersion('2.5.1')).toBe('2.5.1');
    expect(nearestVersion('2.5.2')).toBe('2.5.1');
    expect(nearestVersion('2.2')).toBe('2.3');
    expect(nearestVersion('2.9')).toBe('2.8');
    expect(nearestVersion('garbage')).toBe('2.3');
  });

  it('describes segments, fields and data types of every version', () => {
    for (const version of HL7_VERSIONS) {
      const definitions = getHl7Definitions(version);
      const pid5 = definitions.segment('PID')?.fields[4];
      expect(pid5, version).toMatchObject({ position: 5, name: 'Patient Name', dataType: 'XPN', optionality: 'R' });
      expect(definitions.dataType('XPN')?.components[0]?.name, version).toMatch(/Family/);
      expect(definitions.segment('ZZZ')).toBeUndefined();
    }
    expect(getHl7Definitions('2.5.1')).toBe(getHl7Definitions('2.5.1'));
  });

  it('resolves MSH-9 to a structure: by event in hl7-dictionary versions, by MSH-9.3 and the event map in 2.8', () => {
    expect(getHl7Definitions('2.5.1').resolveMessage('ADT', 'A04', 'ADT_A01').structure?.nodes[0]?.name).toBe('MSH');
    expect(getHl7Definitions('2.8').resolveMessage('ADT', 'A04', '').structure?.id).toBe('ADT_A01');
    expect(getHl7Definitions('2.8').resolveMessage('ADT', 'A04', 'ADT_A01').structure?.id).toBe('ADT_A01');
    expect(getHl7Definitions('2.5.1').resolveMessage('ACK', '', '').structure?.id).toBe('ACK');
    const unknown = getHl7Definitions('2.5.1').resolveMessage('ZZZ', 'Z01', '');
    expect(unknown).toMatchObject({ structure: undefined, knownCode: false, messageType: 'ZZZ^Z01' });
  });

  it('gives structures groups, choices and unbounded cardinality', () => {
    const oru = getHl7Definitions('2.5.1').structure('ORU_R01');
    const result = oru?.nodes.find((n) => n.name === 'PATIENT_RESULT');
    expect(result).toMatchObject({ kind: 'group', min: 1, max: Number.POSITIVE_INFINITY });
    const orm = getHl7Definitions('2.5.1').structure('ORM_O01');
    const json = JSON.stringify(orm, (_key, value) => (value === Number.POSITIVE_INFINITY ? 'inf' : value));
    expect(json).toContain('"kind":"choice"');
  });

  it('corrects known distortions of the source data', () => {
    // 2.3 data marks ORC-7 required; 2.3.1 lists it optional.
    expect(getHl7Definitions('2.3').segment('ORC')?.fields[6]?.optionality).toBe('C');
    // HAPI's 2.8 classes mark OBX-2 and OBX-4 required; the standard makes them conditional.
    expect(getHl7Definitions('2.8').segment('OBX')?.fields[3]?.optionality).toBe('C');
    // hl7-dictionary 2.6 gives OML_O21 PRIOR_RESULT a cardinality of exactly one.
    const oml = JSON.stringify(getHl7Definitions('2.6').structure('OML_O21'));
    expect(oml).toContain('"name":"PRIOR_RESULT","description":"Prior result","min":0');
    // Withdrawn fields of 2.8 are marked W.
    expect(getHl7Definitions('2.8').segment('PID')?.fields[1]?.optionality).toBe('W');
  });

  it('tells HL7-defined tables from user-defined ones and lists their values', () => {
    // the kept list is what the package says today (regenerate definitions/hl7-defined-tables.json if this fails)
    expect(keptHl7DefinedTables()).toEqual(deriveHl7DefinedTables());
    // likewise the conditional fields of 2.3 to 2.4 (definitions/two-state-conditionals.json)
    expect(keptTwoStateConditionals()).toEqual(deriveTwoStateConditionals());
    expect(keptTwoStateConditionals()['2.3']).toEqual(expect.arrayContaining(['OBX.2', 'ORC.7', 'OBR.27', 'NK1.7']));
    expect(isHl7DefinedTable('0085')).toBe(true);
    expect(isHl7DefinedTable('0001')).toBe(false);
    expect(isHl7TableValue('0136', 'Y')).toBe(true);
    expect(isHl7TableValue('0136', 'Q')).toBe(false);
    expect(isHl7TableValue('9999', 'Q')).toBeUndefined();
    expect(getHl7TableValues('0136')?.values.map((v) => v.code)).toEqual(['N', 'Y']);
  });
});
