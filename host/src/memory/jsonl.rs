//! The JSON Lines store: one envelope per line, appended under an exclusive
//! file lock, read under a shared one. A record's position is the byte offset
//! its line starts at, so the file's order is the insertion order.

use super::{corrupt, store_failed, Clock, Envelope, Query, Record};
use crate::diag::Diagnostic;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

#[derive(Debug)]
pub struct JsonlStore {
    path: PathBuf,
}

impl JsonlStore {
    /// Opens the store, creating an empty file when there is none.
    pub fn open(path: PathBuf) -> Result<JsonlStore, Diagnostic> {
        let store = JsonlStore { path };
        store.file(true)?;
        Ok(store)
    }

    fn file(&self, append: bool) -> Result<File, Diagnostic> {
        let mut options = OpenOptions::new();
        options.read(true);
        if append {
            options.append(true).create(true);
        }
        options
            .open(&self.path)
            .map_err(|e| store_failed(&self.path, "opening", &e))
    }

    pub fn add(&self, record: &Record, clock: &dyn Clock) -> Result<Envelope, Diagnostic> {
        let mut file = self.file(true)?;
        file.lock()
            .map_err(|e| store_failed(&self.path, "locking", &e))?;
        let position = file
            .metadata()
            .map_err(|e| store_failed(&self.path, "reading its size", &e))?
            .len();
        if position > 0 {
            // Appending after a line cut short would join two records.
            let mut last = [0u8];
            file.seek(SeekFrom::End(-1))
                .and_then(|_| file.read_exact(&mut last))
                .map_err(|e| store_failed(&self.path, "reading", &e))?;
            if last[0] != b'\n' {
                let text = self.read_locked(&mut file)?;
                let line = text.split_inclusive('\n').count();
                return Err(corrupt(&self.path, &format!("line {line}"), "it does not end with a line break (a write was cut short, or the file was edited by hand)"));
            }
        }
        let envelope = Envelope::new(record, clock.now(), position);
        let mut line = serde_json::to_string(&envelope)
            .map_err(|e| store_failed(&self.path, "serializing the record", &e))?;
        line.push('\n');
        file.write_all(line.as_bytes())
            .map_err(|e| store_failed(&self.path, "appending", &e))?;
        Ok(envelope)
    }

    pub fn query(&self, query: &Query) -> Result<Vec<Envelope>, Diagnostic> {
        let mut file = self.file(false)?;
        file.lock_shared()
            .map_err(|e| store_failed(&self.path, "locking", &e))?;
        let text = self.read_locked(&mut file)?;
        drop(file);
        let mut found = Vec::new();
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let place = format!("line {}", i + 1);
            let Some(json) = line.strip_suffix('\n') else {
                return Err(corrupt(&self.path, &place, "it does not end with a line break (a write was cut short, or the file was edited by hand)"));
            };
            if json.trim().is_empty() {
                continue;
            }
            let envelope: Envelope = serde_json::from_str(json)
                .map_err(|e| corrupt(&self.path, &place, &e.to_string()))?;
            if let Some(why) = envelope.defect() {
                return Err(corrupt(&self.path, &place, &why));
            }
            if query.matches(&envelope) {
                found.push(envelope);
            }
        }
        // Lines are in insertion order: a stable sort by time, reversed, puts
        // the newest first and, among equal times, the last added first.
        found.sort_by(|a, b| a.created_at.cmp(&b.created_at));
        found.reverse();
        found.truncate(query.limit);
        Ok(found)
    }

    fn read_locked(&self, file: &mut File) -> Result<String, Diagnostic> {
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0))
            .and_then(|_| file.read_to_end(&mut bytes))
            .map_err(|e| store_failed(&self.path, "reading", &e))?;
        String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
            corrupt(&self.path, &format!("line {line}"), "it is not UTF-8 text")
        })
    }
}
