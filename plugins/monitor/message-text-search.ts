/**
 * Full-text search of retained raw message text through the database's own index, never a scan of the messages:
 * an FTS5 table on SQLite (contentless, kept by triggers as messages are stored, lose their text to retention or are
 * removed) and a GIN index on PostgreSQL. A search is a list of words (letters and digits; anything else separates
 * words): a message matches when its text holds every word, in any letter case. Only the first
 * {@link SEARCHED_CHARACTERS} characters of a message are indexed.
 */
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { monitorErrors } from './errors.ts';

/** Characters of each message's text that are indexed (both databases bound a document's index size). */
export const SEARCHED_CHARACTERS = 65_536;

/** Most words in one search. */
export const SEARCH_WORDS_MAX = 16;

/** Longest search text. */
export const SEARCH_TEXT_MAX = 200;

/** The FTS5 row key of a message: its file id and index in one integer (indexes stay below 2^30). */
const KEY_FACTOR = 4_294_967_296;

/** The words of a search text, lower case; 400 MESSAGE_FILTER_INVALID when there is none or too many. */
export function searchWords(text: string): string[] {
  if (typeof text !== 'string' || text.length === 0 || text.length > SEARCH_TEXT_MAX) {
    throw monitorErrors.create('MESSAGE_FILTER_INVALID', { reason: `q must be a text of 1 to ${SEARCH_TEXT_MAX} characters` });
  }
  const words = [...new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== ''))];
  if (words.length === 0) throw monitorErrors.create('MESSAGE_FILTER_INVALID', { reason: 'q must hold at least one letter or digit' });
  if (words.length > SEARCH_WORDS_MAX) {
    throw monitorErrors.create('MESSAGE_FILTER_INVALID', { reason: `q may hold at most ${SEARCH_WORDS_MAX} words; it holds ${words.length}` });
  }
  return words;
}

/**
 * SQLite: the messages a search matches, as `(file_id, index_in_file)`, read from the FTS5 index alone: a derived
 * table the query joins on the message's key, so the search drives and each hit is one primary-key look-up.
 */
export function sqliteSearchMatches(words: readonly string[]): RawBuilder<{ file_id: number; index_in_file: number }> {
  // each word quoted (a quote inside doubled): the FTS5 syntax never sees an operator from the caller
  const match = words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' AND ');
  return sql`(select rowid / ${sql.lit(KEY_FACTOR)} as file_id, rowid % ${sql.lit(KEY_FACTOR)} as index_in_file
    from monitor_messages_fts where monitor_messages_fts match ${match})`;
}

/** PostgreSQL: the condition a search puts on `m.raw`, the expression of the GIN index, so the index serves it. */
export function postgresSearchCondition(words: readonly string[]): RawBuilder<boolean> {
  // the words are letters and digits only, so `&` between them is the whole syntax
  return sql<boolean>`${postgresDocument('m.raw')} @@ to_tsquery('simple', ${words.join(' & ')})`;
}

/** The indexed document of a message's text on PostgreSQL: punctuation made blank, so its words are the words of FTS5. */
function postgresDocument(column: string): RawBuilder<unknown> {
  return sql`to_tsvector('simple'::regconfig, regexp_replace(left(${sql.ref(column)}, ${sql.lit(SEARCHED_CHARACTERS)}), '[^[:alnum:]]+', ' ', 'g'))`;
}

/** Migration of the search index (`010_message_search`). */
export function messageSearchMigration(dialect: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`create index monitor_messages_search on monitor_messages using gin (${postgresDocument('raw')})`.execute(db);
        return;
      }
      const key = (row: 'new' | 'old') => sql.raw(`${row}.file_id * ${KEY_FACTOR} + ${row}.index_in_file`);
      const text = (row: 'new' | 'old') => sql.raw(`substr(${row}.raw, 1, ${SEARCHED_CHARACTERS})`);
      await sql`create virtual table monitor_messages_fts using fts5(raw, content='', columnsize=0, detail=none)`.execute(db);
      await sql`insert into monitor_messages_fts (rowid, raw)
        select file_id * ${sql.lit(KEY_FACTOR)} + index_in_file, substr(raw, 1, ${sql.lit(SEARCHED_CHARACTERS)})
        from monitor_messages where raw is not null`.execute(db);
      await sql`create trigger monitor_messages_fts_insert after insert on monitor_messages when new.raw is not null begin
        insert into monitor_messages_fts (rowid, raw) values (${key('new')}, ${text('new')}); end`.execute(db);
      await sql`create trigger monitor_messages_fts_delete after delete on monitor_messages when old.raw is not null begin
        insert into monitor_messages_fts (monitor_messages_fts, rowid, raw) values ('delete', ${key('old')}, ${text('old')}); end`.execute(db);
      // retention sets raw to null; a text that changes is taken out and put back
      await sql`create trigger monitor_messages_fts_update after update of raw on monitor_messages begin
        insert into monitor_messages_fts (monitor_messages_fts, rowid, raw)
          select 'delete', ${key('old')}, ${text('old')} where old.raw is not null;
        insert into monitor_messages_fts (rowid, raw) select ${key('new')}, ${text('new')} where new.raw is not null; end`.execute(db);
    },
  };
}
