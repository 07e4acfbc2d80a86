/**
 * Provenance of the bundled HL7 table content: the sources it comes from (`definitions/tables/sources.json`), the
 * dated update files that add values a newer edition of a table brought (`definitions/tables/updates/*.json`), and
 * the source each table declares it follows. A table whose declared source is newer than its bundled content is
 * stale: {@link staleTables} lists them (a test fails on any). See docs/reference/hl7-table-provenance.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A source of bundled table content. */
export interface Hl7TableSource {
  id: string;
  name: string;
  version: string;
  /** When the source (the package or file) was published. */
  published: string;
  /** What the content is (`HL7 v2.7.1 tables`). */
  contentBasis: string;
  /** The date of the content itself: the edition of the tables it carries. */
  contentDate: string;
  retrieved: string;
  licence: string;
  url?: string;
  /** Tables it supplies, or `*` for every table no other source supplies. */
  tables: string[] | '*';
}

/** A dated update adding values to one table, citing the source that published them. */
export interface Hl7TableUpdate {
  table: string;
  source: string;
  version: string;
  published: string;
  change: string;
  retrieved: string;
  licence: string;
  add: { code: string; display: string }[];
  /** File name under `definitions/tables/updates/`. */
  file: string;
}

/** The source a table declares it follows (`*`: every table not declared on its own). */
export interface Hl7DeclaredTableSource {
  table: string;
  source: string;
  version: string;
  date: string;
}

/** All provenance records. */
export interface Hl7TableProvenance {
  sources: Hl7TableSource[];
  updates: Hl7TableUpdate[];
  declared: Hl7DeclaredTableSource[];
}

/** A table whose declared source is newer than its bundled content. */
export interface Hl7StaleTable {
  table: string;
  bundledDate: string;
  declared: Hl7DeclaredTableSource;
}

const tablesDir = join(dirname(fileURLToPath(import.meta.url)), 'definitions', 'tables');

let cached: Hl7TableProvenance | undefined;

/** The provenance records as bundled (read once). */
export function loadTableProvenance(): Hl7TableProvenance {
  if (cached) return cached;
  const { sources, declared } = JSON.parse(readFileSync(join(tablesDir, 'sources.json'), 'utf8')) as Omit<Hl7TableProvenance, 'updates'>;
  const updatesDir = join(tablesDir, 'updates');
  const updates = readdirSync(updatesDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ ...(JSON.parse(readFileSync(join(updatesDir, file), 'utf8')) as Omit<Hl7TableUpdate, 'file'>), file }));
  cached = { sources, updates, declared };
  return cached;
}

/** The values the update files add to a table (`0396`), oldest update first. */
export function tableUpdateValues(table: string): { code: string; display: string }[] {
  return loadTableProvenance().updates.flatMap((u) => (u.table === table ? u.add : []));
}

/** A partial ISO date (`2012`, `2019-10`, `2025-03-15`) as a comparable full date (missing parts: the first). */
function fullDate(date: string): string {
  const [year = '0000', month = '01', day = '01'] = date.split('-');
  return `${year.padStart(4, '0')}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** The date of a table's bundled content: the newest content date of its sources and updates. */
export function bundledContentDate(table: string, provenance: Hl7TableProvenance = loadTableProvenance()): string {
  const own = provenance.sources.filter((s) => s.tables !== '*' && s.tables.includes(table));
  const bases = own.length > 0 ? own : provenance.sources.filter((s) => s.tables === '*');
  const dates = [...bases.map((s) => s.contentDate), ...provenance.updates.filter((u) => u.table === table).map((u) => u.published)];
  return dates.map(fullDate).sort().at(-1) ?? '0000-01-01';
}

/** Tables (declared on their own, or `*` for the rest) whose declared source is newer than the bundled content. */
export function staleTables(provenance: Hl7TableProvenance = loadTableProvenance()): Hl7StaleTable[] {
  const stale: Hl7StaleTable[] = [];
  for (const declared of provenance.declared) {
    const bundledDate = bundledContentDate(declared.table, provenance);
    if (fullDate(declared.date) > bundledDate) stale.push({ table: declared.table, bundledDate, declared });
  }
  return stale;
}
