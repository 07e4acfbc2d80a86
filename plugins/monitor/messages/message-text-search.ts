/**
 * Full-text search of retained raw message text through the database's own index, never a scan of the messages:
 * an FTS5 table on SQLite (contentless, kept by triggers as messages are stored, lose their text to retention or are
 * removed) and a GIN index of a stored document column on PostgreSQL. A search is a list of words (letters and
 * digits; anything else separates words): a message matches when its text holds every word, in any letter case.
 * Only the first {@link SEARCHED_CHARACTERS} characters of a message are indexed.
 */
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { monitorErrors } from '../errors.ts';

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
 * The messages a search matches, as `(file_id, index_in_file)`, read from the full-text index alone: a derived table
 * the query joins on the message's key, so the search drives and each hit is one primary-key look-up (never a walk
 * of the messages in received order testing each one's text).
 */
export function searchMatches(dialect: 'sqlite' | 'postgres', words: readonly string[]): RawBuilder<{ file_id: number; index_in_file: number }> {
  if (dialect === 'postgres') {
    // the words are letters and digits only, so `&` between them is the whole syntax; `offset 0` keeps the planner
    // from folding the hits into the outer query, where it could prefer the received-order index
    return sql`(select file_id, index_in_file from monitor_messages
      where search_document @@ to_tsquery('simple', ${words.join(' & ')}) offset 0)`;
  }
  // each word quoted (a quote inside doubled): the FTS5 syntax never sees an operator from the caller
  const match = words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' AND ');
  return sql`(select rowid / ${sql.lit(KEY_FACTOR)} as file_id, rowid % ${sql.lit(KEY_FACTOR)} as index_in_file
    from monitor_messages_fts where monitor_messages_fts match ${match})`;
}

/**
 * The indexed document of a message's text on PostgreSQL: punctuation made blank, so its words are the words of
 * FTS5. Kept as a stored column computed by the database (a text that retention removes takes its document along),
 * so even a small table the planner reads row by row tests kept documents, never the text parsed again.
 */
const POSTGRES_DOCUMENT = sql.raw(
  `to_tsvector('simple'::regconfig, regexp_replace(left(raw, ${SEARCHED_CHARACTERS}), '[^[:alnum:]]+', ' ', 'g'))`,
);

/** Migration of the search index (`010_message_search`). */
export function messageSearchMigration(dialect: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`alter table monitor_messages add column search_document tsvector generated always as (${POSTGRES_DOCUMENT}) stored`.execute(db);
        await sql`create index monitor_messages_search on monitor_messages using gin (search_document)`.execute(db);
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
