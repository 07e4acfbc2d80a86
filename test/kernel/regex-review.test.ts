// Every regular expression that sees user input, fed the classic pathological strings (long runs of the repeated
// character, a near miss at the end): each answers, and doubling the input at most about doubles the time (median
// of several runs after a warm-up), so none backtracks super-linearly. Each case runs the expression through the
// function that applies it to input; @medplum/core's type expressions are fed directly, as its validation applies
// them to every primitive value.
import { validationRegexes } from '@medplum/core';
import { describe, expect, it } from 'vitest';
import { maskSecretsInText } from '../../kernel/logger.ts';
import { pathSteps } from '../../kernel/lib/paths/path-pattern.ts';
import { calendarProblem } from '../../plugins/fhir-standard/fhir-calendar.ts';
import { detectFhir } from '../../plugins/fhir-standard/fhir-detect.ts';
import { parsePath } from '../../plugins/fhir-standard/fhir-paths.ts';
import { decodeXmlText } from '../../plugins/fhir-standard/fhir-xml.ts';
import { isHl7CodingSystem } from '../../plugins/hl7-standard/hl7-coding-systems.ts';
import { detectHl7 } from '../../plugins/hl7-standard/parsing/hl7-detect.ts';
import { compileIgnorePattern } from '../../plugins/hl7-standard/diff/hl7-diff-ignore.ts';
import { DEFAULT_HL7_DELIMITERS, parseHl7 } from '../../plugins/hl7-standard/parsing/hl7-parser.ts';
import { decodeHl7Escapes } from '../../plugins/hl7-standard/parsing/hl7-escape.ts';
import { parseHl7Path } from '../../plugins/hl7-standard/hl7-path.ts';
import { splitNdjson } from '../../kernel/lib/text/ndjson.ts';
import { describeNcpdpPath } from '../../plugins/ncpdp-standard/ncpdp-definitions.ts';
import { detectNcpdp, messageRootStart } from '../../plugins/ncpdp-standard/ncpdp-detect.ts';
import { parseNcpdp } from '../../plugins/ncpdp-standard/ncpdp-parser.ts';
import { closestScriptVersion } from '../../plugins/ncpdp-standard/script/script-rules.ts';
import { decodeOverpunch } from '../../plugins/ncpdp-standard/telecom/overpunch.ts';
import { isCcyymmdd, isDecimal, isIsoDate, isIsoDateTime } from '../../plugins/ncpdp-standard/value-formats.ts';
import { testAdapter } from '../fhir-standard/fhir-fixtures.ts';
import { doublingRatio } from '../helpers/growth-ratio.ts';

/** One expression's case: the input of size n, and the call that applies the expression to it. */
interface Case {
  name: string;
  input: (n: number) => string;
  run: (input: string) => unknown;
  /** Input size to start from (large enough to time, small enough to stay quick when linear). */
  size?: number;
}

const regexCase = (name: string, regex: RegExp, input: (n: number) => string): Case => ({ name, input, run: (text) => regex.test(text) });

const fhir = testAdapter();

const cases: Case[] = [
  // HL7 v2
  { name: 'HL7 detection: leading white space, then no header', input: (n) => `\x0b${' '.repeat(n)}x`, run: detectHl7 },
  { name: 'HL7 detection: a header of delimiters only', input: (n) => `MSH${'|'.repeat(n)}`, run: detectHl7 },
  { name: 'HL7 detection: JSON-like opening', input: (n) => `[${' '.repeat(n)}x`, run: detectHl7 },
  { name: 'HL7 detection: lines before a header', input: (n) => `${'x\n'.repeat(n)}MSH`, run: detectHl7 },
  { name: 'HL7 parser: a field of separators', input: (n) => `MSH|^~\\&|A|B|C|D|20250101||ADT^A01|1|P|2.5\rPID|${'^&~'.repeat(n)}`, run: parseHl7 },
  { name: 'HL7 parser: a field of escape characters', input: (n) => `MSH|^~\\&|A|B|C|D|20250101||ADT^A01|1|P|2.5\rPID|${'\\'.repeat(n)}x`, run: parseHl7 },
  { name: 'HL7 parser: control characters in a line that is no segment', input: (n) => `MSH|^~\\&|\r${'\u0001'.repeat(n)}`, run: parseHl7 },
  { name: 'HL7 escapes: a Z escape without its end', input: (n) => `\\Z${'a'.repeat(n)}`, run: (text) => decodeHl7Escapes(text, DEFAULT_HL7_DELIMITERS) },
  { name: 'HL7 escapes: a hexadecimal escape near miss', input: (n) => `\\X${'0'.repeat(n)}g\\`, run: (text) => decodeHl7Escapes(text, DEFAULT_HL7_DELIMITERS) },
  { name: 'HL7 path: digits with a near miss', input: (n) => `PID.${'1'.repeat(n)}x`, run: parseHl7Path },
  { name: 'HL7 ignore pattern: digits with a near miss', input: (n) => `OBX[${'1'.repeat(n)}].5x`, run: compileIgnorePattern },
  { name: 'HL7 coding system: local prefix and a near miss', input: (n) => `99${'Z'.repeat(n)}!`, run: isHl7CodingSystem },
  // FHIR
  { name: 'FHIR detection: an unterminated resource type', input: (n) => `{"resourceType":"${'A'.repeat(n)}`, run: detectFhir },
  { name: 'FHIR detection: resource types repeated', input: (n) => `{${'"resourceType":"A'.repeat(n)}`, run: detectFhir },
  { name: 'FHIR path: brackets without their end', input: (n) => `Patient.a[${'['.repeat(n)}`, run: parsePath },
  { name: 'FHIR path: empty indexes then an open one', input: (n) => `Patient.a${'[]'.repeat(n)}[`, run: parsePath },
  { name: 'FHIR dates: digits', input: (n) => '2'.repeat(n), run: calendarProblem },
  { name: 'FHIR XML text: a character reference without its end', input: (n) => `&#x${'0'.repeat(n)}`, run: decodeXmlText },
  { name: 'FHIR XML: a DOCTYPE opener followed by spaces', input: (n) => `<Patient xmlns="http://hl7.org/fhir"><!${' '.repeat(n)}x</Patient>`, run: (text) => fhir.parse(text) },
  { name: 'FHIR XML: an unterminated attribute', input: (n) => `<Patient xmlns="http://hl7.org/fhir"><id value="${'a'.repeat(n)}`, run: (text) => fhir.parse(text) },
  { name: 'FHIR XML: many attributes', input: (n) => `<Patient xmlns="http://hl7.org/fhir"><id${' a="1"'.repeat(n)}/></Patient>`, run: (text) => fhir.parse(text), size: 5_000 },
  { name: 'FHIR JSON: deep brackets', input: (n) => '['.repeat(n), run: (text) => fhir.parse(text) },
  regexCase('FHIR type code (@medplum/core)', validationRegexes.code as RegExp, (n) => `${'a '.repeat(n)} `),
  regexCase('FHIR type string (@medplum/core)', validationRegexes.string as RegExp, (n) => `${'a'.repeat(n)}\u0001`),
  regexCase('FHIR type base64Binary (@medplum/core)', validationRegexes.base64Binary as RegExp, (n) => `${'AAAA'.repeat(n)}===`),
  regexCase('FHIR type oid (@medplum/core)', validationRegexes.oid as RegExp, (n) => `urn:oid:1${'.1'.repeat(n)}.`),
  regexCase('FHIR type dateTime (@medplum/core)', validationRegexes.dateTime as RegExp, (n) => '2'.repeat(n)),
  regexCase('FHIR type id (@medplum/core)', validationRegexes.id as RegExp, (n) => 'a'.repeat(n)),
  regexCase('FHIR type uri (@medplum/core)', validationRegexes.uri as RegExp, (n) => `${'a'.repeat(n)} `),
  // NCPDP
  { name: 'NCPDP detection: a run of comments before the root', input: (n) => `${'<!---->'.repeat(n)}<x/>`, run: messageRootStart, size: 5_000 },
  { name: 'NCPDP detection: comments then a DOCTYPE near miss', input: (n) => `<?xml version="1.0"?>${'<!-- a -->'.repeat(n)}<!DOCTYPE [${'x'.repeat(n)}`, run: messageRootStart },
  { name: 'NCPDP detection: an XML declaration without its end', input: (n) => `<?xml${'?'.repeat(n)}`, run: detectNcpdp },
  { name: 'NCPDP detection: Message tags without attributes', input: (n) => `<Message ${'<Message '.repeat(n)}`, run: detectNcpdp },
  { name: 'NCPDP Telecommunication: line breaks then text', input: (n) => `999999D0B1${'\r\n'.repeat(n)}x`, run: parseNcpdp },
  { name: 'NCPDP SCRIPT: an unterminated attribute', input: (n) => `<Message xmlns="http://www.ncpdp.org/schema/SCRIPT" version="${'1'.repeat(n)}`, run: parseNcpdp },
  { name: 'NCPDP SCRIPT: nested near miss', input: (n) => `<Message>${'<a>'.repeat(n)}`, run: parseNcpdp, size: 5_000 },
  { name: 'NCPDP version: digits', input: (n) => `10${'.1'.repeat(n)}x`, run: closestScriptVersion },
  { name: 'NCPDP decimal: digits with a near miss', input: (n) => `${'1'.repeat(n)}.x`, run: (text) => isDecimal(text, 11, 5) },
  { name: 'NCPDP dates: digits', input: (n) => '2'.repeat(n), run: (text) => [isIsoDate(text), isIsoDateTime(text), isCcyymmdd(text)] },
  { name: 'NCPDP amounts: digits', input: (n) => `${'1'.repeat(n)}{x`, run: decodeOverpunch },
  { name: 'NCPDP describe: a path near miss', input: (n) => `AM${'0'.repeat(n)}.x`, run: describeNcpdpPath },
  // Shared
  { name: 'NDJSON: line breaks', input: (n) => `${'\r'.repeat(n)}\n{`, run: splitNdjson },
  { name: 'path steps: indexes and attributes', input: (n) => `a${'[1]'.repeat(n)}@${'@'.repeat(n)}`, run: (text) => pathSteps(text, { attributes: true }) },
  { name: 'log masking: scheme-like runs', input: (n) => 'a.'.repeat(n), run: maskSecretsInText },
  { name: 'log masking: a URL without its password end', input: (n) => `${'x://a:'.repeat(n)}b`, run: maskSecretsInText },
];

describe('regular expressions over user input', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: answers, in time linear in the input', (_name, testCase) => {
    // Behaviour first: the call answers (returns or throws a plain error) for the pathological input.
    const size = testCase.size ?? 20_000;
    expect(() => {
      try {
        testCase.run(testCase.input(size));
      } catch (error) {
        if (!(error instanceof Error)) throw error;
      }
    }).not.toThrow();
    const ratio = doublingRatio(testCase.input, (input) => {
      try {
        return testCase.run(input);
      } catch (error) {
        return error;
      }
    }, size);
    expect(ratio, `${testCase.name}: doubling the input took ${ratio.toFixed(2)}x the time`).toBeLessThan(3);
  });
});
