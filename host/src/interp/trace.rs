//! Execution traces: one JSON object per line (JSONL) for every executed step,
//! with a fixed key order so that a run's trace is byte-for-byte reproducible.
//! The event shapes are documented in `spec/semantics.md` ("Traces").
//!
//! Values in events are shown as in diagnostics (truncated, see
//! [`super::value::write_shown`]). The first failed write stops the trace and
//! is kept for [`Tracer::finish`].

use super::value::{self, Value};
use isu_lang::RuntimeCode;
use isu_plugin_api::StepId;
use std::fmt::Write as _;
use std::io::{self, Write};

pub struct Tracer<'w> {
    out: &'w mut dyn Write,
    line: String,
    failed: Option<io::Error>,
}

impl std::fmt::Debug for Tracer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracer")
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<'w> Tracer<'w> {
    pub fn new(out: &'w mut dyn Write) -> Tracer<'w> {
        Tracer {
            out,
            line: String::with_capacity(128),
            failed: None,
        }
    }

    /// Flushes the sink; the first write error of the run, if any.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.out.flush()
    }

    fn start(&mut self, step: Option<&StepId>, kind: &str) {
        self.line.clear();
        self.line.push('{');
        if let Some(id) = step {
            let _ = write!(self.line, "\"step\":\"{id}\",");
        }
        let _ = write!(self.line, "\"kind\":\"{kind}\"");
    }

    fn value(&mut self, key: &str, v: &Value) {
        let _ = write!(self.line, ",\"{key}\":");
        value::write_shown(v, &mut self.line);
    }

    fn name(&mut self, key: &str, name: &str) {
        let _ = write!(self.line, ",\"{key}\":");
        let _ = isu_plugin_api::literal::write_json_string(&mut self.line, name);
    }

    fn end(&mut self) {
        self.line.push_str("}\n");
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.failed = Some(e);
            }
        }
    }

    /// `{"kind":"STATE","var":"total","value":0}`
    pub fn state(&mut self, var: &str, v: &Value) {
        self.start(None, "STATE");
        self.name("var", var);
        self.value("value", v);
        self.end();
    }

    /// `{"step":"S3","kind":"SEQ"}`
    pub fn seq(&mut self, step: &StepId) {
        self.start(Some(step), "SEQ");
        self.end();
    }

    /// `{"step":"S1_1","kind":"IF","branch":"then"}`
    pub fn branch(&mut self, step: &StepId, then: bool) {
        self.start(Some(step), "IF");
        let _ = write!(
            self.line,
            ",\"branch\":\"{}\"",
            if then { "then" } else { "else" }
        );
        self.end();
    }

    /// `{"step":"S1","kind":"LOOP","round":1,"var":"x","value":3}`
    pub fn round(&mut self, step: &StepId, round: u64, var: Option<(&str, &Value)>) {
        self.start(Some(step), "LOOP");
        let _ = write!(self.line, ",\"round\":{round}");
        if let Some((name, v)) = var {
            self.name("var", name);
            self.value("value", v);
        }
        self.end();
    }

    /// `{"step":"S1","kind":"LOOP","exit":true,"rounds":3}`
    pub fn exit(&mut self, step: &StepId, rounds: u64) {
        self.start(Some(step), "LOOP");
        let _ = write!(self.line, ",\"exit\":true,\"rounds\":{rounds}");
        self.end();
    }

    /// `{"step":"S2","kind":"ASSIGN","var":"xs","index":[1],"value":5}`
    /// (`index` only for an element target).
    pub fn assign(&mut self, step: &StepId, var: &str, index: &[Value], v: &Value) {
        self.start(Some(step), "ASSIGN");
        self.name("var", var);
        if !index.is_empty() {
            self.line.push_str(",\"index\":[");
            for (i, k) in index.iter().enumerate() {
                if i > 0 {
                    self.line.push(',');
                }
                value::write_shown(k, &mut self.line);
            }
            self.line.push(']');
        }
        self.value("value", v);
        self.end();
    }

    /// `{"step":"S4","kind":"RETURN","value":6}`
    pub fn ret(&mut self, step: &StepId, v: &Value) {
        self.start(Some(step), "RETURN");
        self.value("value", v);
        self.end();
    }

    /// `{"step":"S2","kind":"ERROR","code":"index_out_of_range"}` (no `step`
    /// when the error belongs to no step).
    pub fn error(&mut self, code: RuntimeCode, step: Option<&StepId>) {
        self.start(step, "ERROR");
        let _ = write!(self.line, ",\"code\":\"{code}\"");
        self.end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn events_have_a_fixed_shape() {
        let mut out = Vec::new();
        let mut t = Tracer::new(&mut out);
        let s1 = StepId::from_path(&[1]);
        t.state("n", &Value::Int(0));
        t.seq(&s1);
        t.branch(&s1, false);
        t.round(&s1, 2, Some(("x", &Value::str("a\"b"))));
        t.round(&s1, 3, None);
        t.exit(&s1, 3);
        t.assign(
            &s1,
            "m",
            &[Value::str("k"), Value::Int(2)],
            &Value::Bool(true),
        );
        t.ret(&s1, &Value::array(vec![Value::Int(1)]));
        t.error(RuntimeCode::ZeroStep, None);
        assert!(t.finish().is_ok());
        let text = String::from_utf8(out).unwrap_or_default();
        assert_eq!(
            text,
            concat!(
                "{\"kind\":\"STATE\",\"var\":\"n\",\"value\":0}\n",
                "{\"step\":\"S1\",\"kind\":\"SEQ\"}\n",
                "{\"step\":\"S1\",\"kind\":\"IF\",\"branch\":\"else\"}\n",
                "{\"step\":\"S1\",\"kind\":\"LOOP\",\"round\":2,\"var\":\"x\",\"value\":\"a\\\"b\"}\n",
                "{\"step\":\"S1\",\"kind\":\"LOOP\",\"round\":3}\n",
                "{\"step\":\"S1\",\"kind\":\"LOOP\",\"exit\":true,\"rounds\":3}\n",
                "{\"step\":\"S1\",\"kind\":\"ASSIGN\",\"var\":\"m\",\"index\":[\"k\",2],\"value\":true}\n",
                "{\"step\":\"S1\",\"kind\":\"RETURN\",\"value\":[1]}\n",
                "{\"kind\":\"ERROR\",\"code\":\"zero_step\"}\n",
            )
        );
        for line in text.lines() {
            assert!(
                serde_json::from_str::<serde_json::Value>(line).is_ok(),
                "{line}"
            );
        }
    }

    #[test]
    fn a_failed_write_is_kept_for_finish() {
        let mut sink = Broken;
        let mut t = Tracer::new(&mut sink);
        t.seq(&StepId::from_path(&[1]));
        t.seq(&StepId::from_path(&[2]));
        assert_eq!(
            t.finish().map_err(|e| e.to_string()),
            Err("disk full".to_owned())
        );
    }
}
