//! The protocol's framing on a byte stream: `Content-Length` headers, a
//! blank line, a JSON body. Reading never gives up on bad input: a header
//! that is not one, a body that is not JSON or not a JSON-RPC message, a
//! message over [`MAX_MESSAGE_BYTES`] are each answered with a JSON-RPC
//! error (`-32700` parse error, `-32600` invalid request) and reading goes
//! on with the next message; only the end of the stream ends it.

use lsp_server::{ErrorCode, Message};
use serde_json::{json, Value};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};

/// The longest message read; a longer one is skipped, unread, and
/// answered with an error.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest header line.
const MAX_HEADER_LINE: usize = 8 << 10;

/// Where messages go: one writer shared by the reader (its error answers)
/// and the server, each message written whole.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Out")
    }
}

impl Out {
    pub fn new(w: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one message.
    pub fn send(&self, msg: &Message) -> io::Result<()> {
        let mut w = self
            .0
            .lock()
            .map_err(|_| io::Error::other("output lock poisoned"))?;
        msg.write(&mut *w)
    }

    /// Writes an error answer to a message that could not be read as one:
    /// with its `id` when it had a readable one, else `null`.
    pub fn error(&self, id: Value, code: ErrorCode, message: &str) -> io::Result<()> {
        let body = json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": code as i32, "message": message},
        })
        .to_string();
        let mut w = self
            .0
            .lock()
            .map_err(|_| io::Error::other("output lock poisoned"))?;
        write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
        w.flush()
    }
}

/// Reads messages from `input` until it ends, handing each to `deliver`
/// (which returns false to stop); what cannot be read is answered on `out`.
pub fn read_messages(
    input: &mut impl BufRead,
    out: &Out,
    mut deliver: impl FnMut(Message) -> bool,
) -> io::Result<()> {
    loop {
        let length = match headers(input)? {
            Headers::End => return Ok(()),
            Headers::Bad(why) => {
                out.error(Value::Null, ErrorCode::ParseError, &why)?;
                continue;
            }
            Headers::Length(n) => n,
        };
        if length > MAX_MESSAGE_BYTES {
            let skipped = io::copy(&mut input.take(length as u64), &mut io::sink())?;
            out.error(
                Value::Null,
                ErrorCode::InvalidRequest,
                &format!(
                    "a message of {length} bytes is over the limit of {MAX_MESSAGE_BYTES} bytes; it was skipped"
                ),
            )?;
            if skipped < length as u64 {
                return Ok(());
            }
            continue;
        }
        let mut body = vec![0; length];
        if input.read_exact(&mut body).is_err() {
            return Ok(());
        }
        let value: Value = match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(e) => {
                out.error(
                    Value::Null,
                    ErrorCode::ParseError,
                    &format!("the message is not JSON: {e}"),
                )?;
                continue;
            }
        };
        match serde_json::from_value::<Message>(value.clone()) {
            Ok(msg) if well_formed(&value) => {
                if !deliver(msg) {
                    return Ok(());
                }
            }
            _ => {
                // An id that can be read is echoed, so the sender knows
                // which of its requests failed.
                let id = match value.get("id") {
                    Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
                    _ => Value::Null,
                };
                out.error(
                    id,
                    ErrorCode::InvalidRequest,
                    "the message is not a JSON-RPC 2.0 request, response or notification",
                )?;
            }
        }
    }
}

/// Whether `v` is a JSON-RPC message as the protocol writes one (a method
/// is a string, params an object or array when given).
fn well_formed(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    let params_ok = obj
        .get("params")
        .is_none_or(|p| p.is_object() || p.is_array() || p.is_null());
    obj.get("method").is_none_or(Value::is_string) && params_ok
}

enum Headers {
    Length(usize),
    Bad(String),
    End,
}

/// Reads one block of headers, up to its blank line.
fn headers(input: &mut impl BufRead) -> io::Result<Headers> {
    let mut length: Option<Result<usize, String>> = None;
    let mut bad: Option<String> = None;
    let mut seen_any = false;
    loop {
        let mut line = Vec::new();
        let n = input
            .take(MAX_HEADER_LINE as u64)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(Headers::End);
        }
        if line.last() != Some(&b'\n') && n == MAX_HEADER_LINE {
            // Skip the rest of an overlong line.
            let mut rest = Vec::new();
            input.read_until(b'\n', &mut rest)?;
            bad.get_or_insert_with(|| "a header line over 8 KiB".to_owned());
            seen_any = true;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !seen_any {
                continue; // blank lines between messages
            }
            break;
        }
        seen_any = true;
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                length =
                    Some(value.trim().parse::<usize>().map_err(|_| {
                        format!("`Content-Length: {}` is not a length", value.trim())
                    }));
            }
            Some(_) => {} // Content-Type and any other header
            None => {
                bad.get_or_insert_with(|| format!("`{}` is not a header", shorten(text)));
            }
        }
    }
    Ok(match (length, bad) {
        (Some(Ok(n)), None) => Headers::Length(n),
        (Some(Ok(n)), Some(_)) => Headers::Length(n),
        (Some(Err(why)), _) => Headers::Bad(why),
        (None, Some(why)) => Headers::Bad(format!("{why}, and no Content-Length header")),
        (None, None) => Headers::Bad("a message without a Content-Length header".to_owned()),
    })
}

fn shorten(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages delivered and the bytes written back, for `input`.
    fn read(input: &[u8]) -> (Vec<Message>, String) {
        let written = Arc::new(Mutex::new(Vec::new()));
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0
                    .lock()
                    .map_err(|_| io::Error::other("poisoned"))?
                    .extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let out = Out::new(Sink(written.clone()));
        let mut got = Vec::new();
        read_messages(&mut &input[..], &out, |m| {
            got.push(m);
            true
        })
        .unwrap();
        let bytes = written.lock().unwrap().clone();
        (got, String::from_utf8(bytes).unwrap())
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn bad_input_is_answered_and_reading_goes_on() {
        let good = framed(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        let input = [
            framed("{not json"),
            "garbage line\r\n\r\n".to_owned(),
            framed(r#"{"jsonrpc":"2.0","id":7,"method":3}"#),
            "Content-Length: x\r\n\r\n".to_owned(),
            good.clone(),
        ]
        .concat();
        let (got, written) = read(input.as_bytes());
        assert_eq!(got.len(), 1, "{written}");
        assert!(written.contains(r#""code":-32700"#), "{written}");
        assert!(written.contains(r#""id":7"#), "{written}");
        assert!(written.contains(r#""code":-32600"#), "{written}");
        assert_eq!(
            written.matches(r#""jsonrpc":"2.0""#).count(),
            4,
            "{written}"
        );
    }

    #[test]
    fn an_oversized_message_is_skipped() {
        let big = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE_BYTES + 1);
        let mut input = big.into_bytes();
        input.extend(std::iter::repeat_n(b' ', MAX_MESSAGE_BYTES + 1));
        input.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#).bytes());
        let (got, written) = read(&input);
        assert_eq!(got.len(), 1);
        assert!(written.contains("over the limit"), "{written}");
    }
}
