//! The SQLite store: one fixed table, prepared statements only, the namespace
//! only ever a bound value. Writers take SQLite's write lock up front
//! (`BEGIN IMMEDIATE`) and wait for one another through a busy timeout.

use super::{corrupt, store_failed, Clock, Envelope, Query, Record};
use crate::diag::Diagnostic;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::PathBuf;
use std::time::Duration;

/// How long a writer waits for another to finish before it gives up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// The schema's version, kept in SQLite's `user_version`; a database with
/// another non-zero version is not a store of this kind and is refused.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS memory_records (
  namespace TEXT NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  kind TEXT,
  text TEXT,
  record_json TEXT NOT NULL,
  PRIMARY KEY (namespace, seq),
  UNIQUE (namespace, id)
);
CREATE INDEX IF NOT EXISTS memory_records_newest
  ON memory_records (namespace, created_at, seq);
";

#[derive(Debug)]
pub struct SqliteStore {
    path: PathBuf,
    namespace: String,
    conn: Connection,
}

/// Puts the database in WAL mode. Switching a new database's journal needs
/// it alone, and SQLite answers "database is locked" at once, without the
/// busy handler, when another process opens it at the same moment: so the
/// switch is tried again, for at most [`BUSY_TIMEOUT`].
fn wal(conn: &Connection) -> rusqlite::Result<()> {
    let start = std::time::Instant::now();
    loop {
        match conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())) {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && start.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

impl SqliteStore {
    /// Opens (or creates) the database and its schema.
    pub fn open(path: PathBuf, namespace: String) -> Result<SqliteStore, Diagnostic> {
        let fail = |doing: &str, e: rusqlite::Error| store_failed(&path, doing, &e);
        let mut conn = Connection::open(&path).map_err(|e| fail("opening", e))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| fail("setting the busy timeout", e))?;
        // WAL lets readers go on while one process writes; it is kept in the file.
        wal(&conn).map_err(|e| fail("opening", e))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL")
            .map_err(|e| fail("opening", e))?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| fail("locking", e))?;
        let version: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| fail("reading the schema version", e))?;
        if version != 0 && version != SCHEMA_VERSION {
            return Err(store_failed(
                &path,
                "opening",
                &format!("it is not an isu memory store (schema version {version}, expected {SCHEMA_VERSION})"),
            ));
        }
        tx.execute_batch(SCHEMA)
            .and_then(|()| tx.pragma_update(None, "user_version", SCHEMA_VERSION))
            .and_then(|()| tx.commit())
            .map_err(|e| fail("creating the schema", e))?;
        Ok(SqliteStore {
            path,
            namespace,
            conn,
        })
    }

    pub fn add(&mut self, record: &Record, clock: &dyn Clock) -> Result<Envelope, Diagnostic> {
        let path = &self.path;
        let fail = |doing: &str, e: rusqlite::Error| store_failed(path, doing, &e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| fail("locking", e))?;
        let last: Option<i64> = tx
            .prepare_cached("SELECT MAX(seq) FROM memory_records WHERE namespace = ?1")
            .and_then(|mut s| s.query_row(params![self.namespace], |r| r.get(0)))
            .optional()
            .map_err(|e| fail("reading", e))?
            .flatten();
        let seq = last.unwrap_or(0).saturating_add(1);
        let envelope = Envelope::new(record, clock.now(), seq.unsigned_abs());
        let json = serde_json::to_string(&envelope.record)
            .map_err(|e| store_failed(path, "serializing the record", &e))?;
        tx.prepare_cached(
            "INSERT INTO memory_records
               (namespace, seq, id, created_at, updated_at, kind, text, record_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )
        .and_then(|mut s| {
            s.execute(params![
                self.namespace,
                seq,
                envelope.id,
                envelope.created_at,
                envelope.updated_at,
                envelope.kind,
                record.text(),
                json
            ])
        })
        .and_then(|_| tx.commit())
        .map_err(|e| fail("adding a record", e))?;
        Ok(envelope)
    }

    pub fn query(&self, query: &Query) -> Result<Vec<Envelope>, Diagnostic> {
        let fail = |e: rusqlite::Error| store_failed(&self.path, "reading", &e);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT seq, id, created_at, updated_at, kind, record_json
                   FROM memory_records
                  WHERE namespace = ?1 AND (?2 IS NULL OR kind = ?2)
                  ORDER BY created_at DESC, seq DESC",
            )
            .map_err(fail)?;
        let mut rows = stmt
            .query(params![self.namespace, query.kind])
            .map_err(fail)?;
        let mut found = Vec::new();
        while found.len() < query.limit {
            let Some(row) = rows.next().map_err(fail)? else {
                break;
            };
            let seq: i64 = row.get(0).map_err(fail)?;
            let envelope = self.envelope(row).map_err(|why| {
                corrupt(
                    &self.path,
                    &format!("row {seq} of namespace {:?}", self.namespace),
                    &why,
                )
            })?;
            if query.matches(&envelope) {
                found.push(envelope);
            }
        }
        Ok(found)
    }

    /// The envelope of one row, or why the row is not one.
    fn envelope(&self, row: &rusqlite::Row<'_>) -> Result<Envelope, String> {
        let text = |i: usize| row.get::<_, String>(i).map_err(|e| e.to_string());
        let record = serde_json::from_str(&text(5)?).map_err(|e| e.to_string())?;
        let envelope = Envelope {
            id: text(1)?,
            kind: row.get(4).map_err(|e| e.to_string())?,
            created_at: text(2)?,
            updated_at: text(3)?,
            record,
        };
        match envelope.defect() {
            Some(why) => Err(why),
            None => Ok(envelope),
        }
    }
}
