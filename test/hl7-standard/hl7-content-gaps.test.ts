/**
 * HL7 v2 content checks that sit beside the field definitions: fields after a segment's last defined field, U+FFFD
 * replacement characters, and the validation guide's issue-code table that documents them with every other code.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverProfilePacks } from '../../kernel/standards/profile-packs.ts';
import { projectRoot } from '../../kernel/config-loader.ts';
import { HL7_ISSUE_CODES } from '../../plugins/hl7-standard/validation/hl7-issue-messages.ts';
import { loadHl7Profiles } from '../../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';

const profiles = loadHl7Profiles(discoverProfilePacks([resolve(projectRoot, 'profiles')]).packs);

const ADT = [
  'MSH|^~\\&|ACMEHIS|FAC|RECV|RFAC|20240101120000||ADT^A01^ADT_A01|CTRL1|P|2.5|||||USA',
  'EVN|A01|20240101120000||||20240101115500',
  'PID|1||111^^^HOSP^MR||DOE^JANE||19800101|F|||1 MAIN ST^^TOWN^OH^44000|||||||ACC1',
  'PV1|1|I|WARD^101^A||||||||||||||||V1|||||||||||||||||||||||||20240101110000',
];

function pairs(issues: Array<{ code: string; field: string; severity: string }>): string[] {
  return issues.map((issue) => `${issue.severity} ${issue.code} ${issue.field}`);
}

describe('fields beyond the last defined field', () => {
  it('are one finding per segment, in any segment the version defines, MSH included', () => {
    const lines = [`${ADT[0]}${'|'.repeat(5)}MSH-22`, ADT[1], ADT[2], `${ADT[3]}|||||||||x|y|z`];
    const result = validateHl7(lines.join('\r'), { mode: 'strict' });
    expect(pairs(result.errors).filter((p) => p.includes('UNKNOWN_ELEMENT'))).toEqual(['error UNKNOWN_ELEMENT MSH.22', 'error UNKNOWN_ELEMENT PV1.53']);
    expect(result.errors.find((issue) => issue.field === 'PV1.53')?.message).toContain('and 2 more filled field(s) after it lie beyond PV1.52');
  });

  it('count against the definitions of the version validated against: PID-31 is new in v2.4', () => {
    const v23 = ADT.map((line) => line.replace('|2.5|', '|2.3|'));
    const withPid31 = [v23[0], v23[1], `${v23[2]}${'|'.repeat(13)}Y`, v23[3]].join('\r');
    expect(pairs(validateHl7(withPid31, { mode: 'strict' }).errors)).toContain('error UNKNOWN_ELEMENT PID.31');
    expect(pairs(validateHl7(withPid31, { mode: 'strict', version: '2.5' }).errors).some((p) => p.includes('UNKNOWN_ELEMENT'))).toBe(false);
  });

  it('apply to a profile Z-segment by the fields the profile gives it', () => {
    const acme = profiles.get('acme-adt');
    const message = [...ADT, 'ZPI|1||Y|20240101|extra'].join('\r');
    const result = validateHl7(message, { mode: 'strict', profile: acme });
    expect(pairs(result.errors).filter((p) => p.includes('UNKNOWN_ELEMENT'))).toEqual(['error UNKNOWN_ELEMENT ZPI.5']);
  });

  it('in a repeated segment name the occurrence', () => {
    const oru = [
      'MSH|^~\\&|LAB|FAC|ELR|DOH|20250615120000||ORU^R01^ORU_R01|M1|P|2.5.1',
      'PID|1||P1^^^FAC^MR||DOE^JANE',
      'OBR|1|O1|F1|24331-1^Lipid panel^LN|||20250615110000',
      'OBX|1|NM|2093-3^Cholesterol^LN||150|mg/dL^mg/dL^UCUM|||||F',
      `OBX|2|NM|2093-3^Cholesterol^LN||150|mg/dL^mg/dL^UCUM|||||F${'|'.repeat(20)}OBX-31`,
    ].join('\r');
    expect(pairs(validateHl7(oru, { mode: 'compatibility' }).warnings)).toContain('warning UNKNOWN_ELEMENT OBX[2].31');
  });
});

describe('U+FFFD replacement characters', () => {
  it('name the first field holding one and how many fields do, once per message, in each message of a batch', () => {
    const damaged = [ADT[0], ADT[1], ADT[2].replace('DOE^JANE', 'D\uFFFDE^J\uFFFDNE').replace('TOWN', 'T\uFFFDWN'), ADT[3]].join('\r');
    const result = validateHl7(`${damaged}\r${ADT.join('\r')}\r${damaged}`, { mode: 'strict' });
    const found = result.errors.filter((issue) => issue.code === 'INVALID_ENCODING');
    expect(found.map((issue) => issue.field)).toEqual(['message[1].PID.5', 'message[3].PID.5']);
    expect(found[0]?.message).toContain('PID.5 and 1 more field(s) hold U+FFFD');
  });

  it('mention the character set MSH-18 declares', () => {
    const latin = [ADT[0].replace('|USA', '|USA|8859/1'), ADT[1], ADT[2].replace('DOE', 'D\uFFFDE'), ADT[3]].join('\r');
    const [finding] = validateHl7(latin, { mode: 'strict' }).errors.filter((issue) => issue.code === 'INVALID_ENCODING');
    expect(finding?.message).toContain('MSH.18 declares "8859/1"');
  });

  it('are not reported again when the bytes themselves could not be decoded: the parser already said so', () => {
    const bytes = Buffer.concat([Buffer.from(`${ADT[0]}\r${ADT[1]}\rPID|1||111^^^HOSP^MR||D`), Buffer.from([0xff, 0xfe]), Buffer.from(`E^JANE\r${ADT[3]}`)]);
    const result = validateHl7(new Uint8Array(bytes), { mode: 'strict' });
    expect(result.errors.map((issue) => issue.code)).toContain('PARSE_ERROR');
    expect(result.errors.map((issue) => issue.code)).not.toContain('INVALID_ENCODING');
  });

  it('a clean message has none', () => {
    expect(validateHl7(ADT.join('\r'), { mode: 'strict' }).errors.filter((issue) => issue.code === 'INVALID_ENCODING')).toEqual([]);
  });
});

describe('the validation guide\'s issue-code table', () => {
  it('documents every HL7 issue code with its strict and compatibility severity, and no other', () => {
    const readme = readFileSync(resolve(projectRoot, 'docs', 'guides', 'validating-and-comparing.md'), 'utf8');
    const table = readme.split('### HL7 v2 issue codes')[1]?.split('\n\n')[1] ?? '';
    const documented = new Set([...table.matchAll(/^\| `([A-Z_]+)` \| .+ \| (error|warning)[^|]* \| (error|warning)[^|]* \|$/gm)].map((m) => m[1]));
    expect([...documented].sort()).toEqual([...HL7_ISSUE_CODES].sort());
  });
});
