/**
 * The travel pass of XML documents (FHIR XML, NCPDP SCRIPT): one forward scan over the document's markup, handing
 * each part to the rule for its place: text between tags, comments, CDATA, attribute values and element names. Text,
 * comments and attribute values are read decoded and written encoded again; an element name is read as words
 * (`JaneRoe` -> `Jane Roe`) and a rewritten name keeps only letters, digits, `_`, `-` and `.`, so the document stays
 * well-formed (an opening and its closing tag get the same name, since the rule is a function of the name).
 */

import type { ReportBuilder } from '../deidentify-report.ts';
import { type NeedleSet, replaceNeedles } from '../replacement/needles.ts';
import { decodeXmlEntities, escapeXmlAttribute, escapeXmlText } from '../../../kernel/lib/xml/xml-escape.ts';

/** What is done with each part of a document. */
export interface XmlTravelRules {
  text(value: string): string;
  comment(value: string): string;
  attribute(value: string): string;
  /** The words of an element name (split at case and digit changes), rewritten. */
  nameWords(words: string): string;
}

const MARKUP =
  /<!--([\s\S]*?)-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!(?!--)[^>]*>|<(\/?)([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)(\s*\/?)>/g;
const ATTRIBUTE = /(\s+[^\s=>/]+\s*=\s*)("([^"]*)"|'([^']*)')/g;

function splitName(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Za-z])(\d)/g, '$1 $2').replace(/(\d)([A-Za-z])/g, '$1 $2');
}

/** `xml` with each part rewritten by `rules`; parts a rule leaves unchanged stay byte for byte. */
export function travelXml(xml: string, rules: XmlTravelRules): string {
  const names = new Map<string, string>();
  const rename = (name: string) => {
    let made = names.get(name);
    if (made === undefined) {
      const words = splitName(name);
      const rewritten = rules.nameWords(words);
      made = rewritten === words ? name : rewritten.replace(/[^\p{L}\p{N}_.-]/gu, '') || 'redacted';
      if (!/^[A-Za-z_]/.test(made)) made = `_${made}`;
      names.set(name, made);
    }
    return made;
  };
  const text = (value: string) => {
    if (value.trim() === '') return value;
    const decoded = decodeXmlEntities(value);
    const made = rules.text(decoded);
    return made === decoded ? value : escapeXmlText(made);
  };
  let out = '';
  let last = 0;
  MARKUP.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = MARKUP.exec(xml)) !== null) {
    out += text(xml.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      const made = rules.comment(match[1]);
      out += made === match[1] ? match[0] : `<!--${made.replace(/--/g, '- -')}-->`;
    } else if (match[2] !== undefined) {
      const made = rules.text(match[2]);
      out += made === match[2] ? match[0] : `<![CDATA[${made.replace(/\]\]>/g, ']] >')}]]>`;
    } else if (match[5] !== undefined) {
      const attributes = (match[6] ?? '').replace(ATTRIBUTE, (whole, head: string, _quoted, double?: string, single?: string) => {
        const raw = double ?? single ?? '';
        const decoded = decodeXmlEntities(raw);
        const made = rules.attribute(decoded);
        return made === decoded ? whole : `${head}"${escapeXmlAttribute(made)}"`;
      });
      out += `<${match[3]}${match[4] ?? ''}${rename(match[5])}${attributes}${match[7]}>`;
    } else out += match[0];
  }
  return out + text(xml.slice(last));
}

/**
 * The travel pass with the usual rules: known identifiers (`needles`) replaced in text, attribute values and element
 * names (a renamed element listed in the report's `redacted`), comments scrubbed as free text by `scrubComment`.
 */
export function travelXmlWithNeedles(xml: string, needles: NeedleSet<string> | undefined, scrubComment: (text: string) => string, report: ReportBuilder): string {
  const keep = (value: string) => (needles ? replaceNeedles(value, needles) : value);
  return travelXml(xml, {
    text: keep,
    attribute: keep,
    comment: (value) => {
      const made = scrubComment(value);
      if (made !== value) report.add('comment', 'freeText');
      return made;
    },
    nameWords: (words) => {
      const made = keep(words);
      if (made !== words) report.redact(`element ${made.replace(/[^\p{L}\p{N}]/gu, '')}`);
      return made;
    },
  });
}
