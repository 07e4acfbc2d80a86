/**
 * The ledger on a store shared by several nodes. Exactly one live node watches an interface, but in the moments of
 * a take-over two may read the same file; the commit makes that harmless:
 * - each commit holds a transaction-level advisory lock per interface it writes (taken in id order, so two commits
 *   never wait on each other in a circle), and judges its files again inside it: a file whose ledger row changed
 *   since it was read (another node counted it meanwhile) is left out, as already counted;
 * - the unique index `monitor_files_identity` (interface, path, content hash) stands behind that;
 * - new ledger rows take their ids from the table's sequence, so two nodes' commits never pick the same id.
 */
import type { CommitStatements } from './commit-statements.ts';
import type { ReadFile } from './read-file.ts';

/** Paths looked up per statement. */
const PATHS_PER_QUERY = 500;

interface CurrentRow {
  id: number;
  path: string;
  hash: string;
}

/**
 * Locks the interfaces of a batch for this transaction and answers the files still to count: those whose path's
 * ledger row is the one they were judged against (or still none, for a new file). PostgreSQL only.
 */
export async function keepUncounted(statements: CommitStatements, files: ReadFile[]): Promise<ReadFile[]> {
  const byInterface = new Map<string, ReadFile[]>();
  for (const file of files) {
    const group = byInterface.get(file.interfaceId) ?? [];
    group.push(file);
    byInterface.set(file.interfaceId, group);
  }
  const kept: ReadFile[] = [];
  for (const interfaceId of [...byInterface.keys()].sort()) {
    await statements.run('select pg_advisory_xact_lock(hashtext(?))', [`monitor-ledger:${interfaceId}`]);
    const group = byInterface.get(interfaceId)!;
    const current = new Map<string, CurrentRow>();
    for (let i = 0; i < group.length; i += PATHS_PER_QUERY) {
      const paths = group.slice(i, i + PATHS_PER_QUERY).map((file) => file.path);
      const found = await statements.first<{ rows: CurrentRow[] | string }>(
        "select coalesce(json_agg(json_build_object('id', id, 'path', path, 'hash', content_hash) order by id), '[]') as rows " +
          "from monitor_files where interface_id = ? and path = any(?) and state <> 'replaced'",
        [interfaceId, paths],
      );
      const rows = typeof found?.rows === 'string' ? (JSON.parse(found.rows) as CurrentRow[]) : (found?.rows ?? []);
      // the newest row of a path is its current one
      for (const row of rows) current.set(row.path, row);
    }
    for (const file of group) {
      const row = current.get(file.path);
      // a renamed file has no row at its new path yet (its row moves there)
      const judgedAgainst = file.verdict.kind === 'new' || file.verdict.kind === 'renamed' ? undefined : file.verdict.row;
      if (judgedAgainst === undefined ? row === undefined : row !== undefined && Number(row.id) === Number(judgedAgainst.id) && row.hash === judgedAgainst.content_hash) {
        kept.push(file);
      }
    }
  }
  return kept;
}

/** `count` new ledger ids from the table's sequence, in one statement. PostgreSQL only. */
export async function nextFileIds(statements: CommitStatements, count: number): Promise<number[]> {
  if (count === 0) return [];
  const found = await statements.first<{ ids: Array<string | number> }>(
    "select array_agg(nextval(pg_get_serial_sequence('monitor_files', 'id'))) as ids from generate_series(1, ?)",
    [count],
  );
  return (found?.ids ?? []).map(Number);
}
