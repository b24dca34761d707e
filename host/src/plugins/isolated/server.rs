//! The plugin host's side (`isu plugin-host FILE`): load one backend
//! library, say so, then answer each request line with one response line
//! until the input ends. Whatever the plugin does to this process (abort,
//! crash, hang) stays in this process.

use super::wire::{Call, Hello, Reply, Request, Response, WireArtifact, PROTOCOL, UNREAD};
use isu_plugin_api::abi;
use isu_plugin_api::{Artifact, Backend, BackendCode, PluginDiagnostic};
use serde_json::Value;
use std::io::{self, BufRead, Write};
use std::path::Path;

fn line(out: &mut impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    out.flush()
}

fn json(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Loads the backend at `library` and serves requests from `input` on
/// `output` until `input` ends. A library that cannot be loaded is answered
/// with `refused` and nothing more. Only a failure to read or write the
/// streams is an error.
pub fn serve(library: &Path, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let backend = match abi::load_backend(library) {
        Ok(b) => b,
        Err(e) => {
            let refused = Hello::Refused {
                code: e.code().to_owned(),
                message: e.to_string(),
                fix: e.fix(),
            };
            return line(&mut output, &refused);
        }
    };
    let hello = Hello::Ready {
        protocol: PROTOCOL.to_owned(),
        api_version: backend.api_version().to_string(),
        info: Box::new(backend.info()),
    };
    line(&mut output, &hello)?;
    for text in input.lines() {
        let text = text?;
        if text.trim().is_empty() {
            continue;
        }
        // Isu's JSON reader, whose depth limit admits the IIR of every
        // program the parser takes (serde_json's does not).
        let response = match isu_plugin_api::json::from_str::<Request>(&text) {
            Ok(request) => Response {
                id: request.id,
                reply: answer(&backend, request.call),
            },
            Err(e) => Response {
                id: UNREAD,
                reply: Reply::Err(json(&PluginDiagnostic::backend(
                    BackendCode::HostBug,
                    format!("the plugin host could not read a request: {e}"),
                ))),
            },
        };
        line(&mut output, &response)?;
    }
    Ok(())
}

fn answer(backend: &dyn Backend, call: Call) -> Reply {
    match call {
        Call::Compile { program, options } => match backend.compile(&program, &options) {
            Ok(artifacts) => {
                let wire: Vec<WireArtifact> =
                    artifacts.iter().map(WireArtifact::from_artifact).collect();
                Reply::Ok(json(&wire))
            }
            Err(diags) => Reply::Err(json(&diags)),
        },
        Call::Execute {
            artifacts,
            args,
            options,
        } => {
            let artifacts: Result<Vec<Artifact>, PluginDiagnostic> =
                artifacts.iter().map(WireArtifact::to_artifact).collect();
            match artifacts.and_then(|a| backend.execute(&a, &args, &options)) {
                Ok(value) => Reply::Ok(json(&value)),
                Err(d) => Reply::Err(json(&d)),
            }
        }
    }
}
