/**
 * Bounded output and linear-time matching, on the reproductions of issue 8: 350,000 bare `MSH|^~\&|` lines
 * validated (time and answer size beside parsing the same text alone), and the pathological ignoredFields patterns
 * (diff time with the pattern beside the same diff without any), all in-process, same run.
 */
import { performance } from 'node:perf_hooks';
import { testAdapter } from '../test/fhir-standard/fhir-fixtures.ts';
import { parseHl7 } from '../plugins/hl7-standard/parsing/hl7-parser.ts';
import { validateHl7 } from '../plugins/hl7-standard/validation/hl7-validator.ts';
import { createNcpdpAdapter } from '../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';
import { fmt } from './http-load.ts';

/** Median milliseconds of `runs` calls after one warm-up call. */
function medianMs(work: () => unknown, runs = 3): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

/** Runs the benchmark and returns its figures. */
export async function runOutputBoundsBench(): Promise<Record<string, number>> {
  const flood = 'MSH|^~\\&|\r\n'.repeat(350_000);
  const parseMs = medianMs(() => parseHl7(flood));
  let answerBytes = 0;
  let findings = 0;
  const validateMs = medianMs(() => {
    const result = validateHl7(flood, { mode: 'strict' });
    answerBytes = Buffer.byteLength(JSON.stringify(result));
    findings = (result.totals?.errors ?? 0) + (result.totals?.warnings ?? 0);
  });
  console.log(
    `350,000 bare MSH lines (${fmt(flood.length / 1e6, 1)} MB): validate ${fmt(validateMs)} ms, ${fmt(findings)} findings counted, answer ${fmt(answerBytes / 1024)} KB | parse alone ${fmt(parseMs)} ms`,
  );

  const ncpdp = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
  const header = (inner: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><Message xmlns="http://www.ncpdp.org/schema/SCRIPT"><Header>${inner}</Header><Body><Status/></Body></Message>`;
  const left = header('<a>1</a>'.repeat(3_000));
  const right = header('<a>2</a>'.repeat(3_000));
  const ncpdpPatternMs = medianMs(() => ncpdp.diff(left, right, { ignoredFields: ['Header.*a*a*a*a!'] }));
  const ncpdpPlainMs = medianMs(() => ncpdp.diff(left, right, { ignoredFields: [] }));
  console.log(
    `NCPDP diff, 3,000 elements a, ignoredFields ["Header.*a*a*a*a!"]: ${fmt(ncpdpPatternMs, 1)} ms | without patterns ${fmt(ncpdpPlainMs, 1)} ms`,
  );

  const fhir = testAdapter();
  let nested: Record<string, unknown> = { url: 'http://example.org/leaf', valueString: 'x' };
  for (let depth = 0; depth < 40; depth++) nested = { url: `http://example.org/level-${depth}`, extension: [nested] };
  const patient = (family: string) => JSON.stringify({ resourceType: 'Patient', id: 'p1', name: [{ family }], extension: [nested] });
  const fhirPatternMs = medianMs(() => fhir.diff(patient('Left'), patient('Right'), { ignoredFields: ['**.**.**.**.**.nomatch'] }));
  const fhirPlainMs = medianMs(() => fhir.diff(patient('Left'), patient('Right'), { ignoredFields: [] }));
  console.log(
    `FHIR diff, 40 nested extensions, ignoredFields ["**.**.**.**.**.nomatch"]: ${fmt(fhirPatternMs, 1)} ms | without patterns ${fmt(fhirPlainMs, 1)} ms`,
  );
  return {
    floodValidateMs: Math.round(validateMs),
    floodParseMs: Math.round(parseMs),
    floodAnswerKb: Math.round(answerBytes / 1024),
    floodFindings: findings,
    ncpdpPatternDiffMs: Number(ncpdpPatternMs.toFixed(1)),
    ncpdpPlainDiffMs: Number(ncpdpPlainMs.toFixed(1)),
    fhirPatternDiffMs: Number(fhirPatternMs.toFixed(1)),
    fhirPlainDiffMs: Number(fhirPlainMs.toFixed(1)),
  };
}
