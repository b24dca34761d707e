//! The messages of the plugin-host protocol, one JSON document a line
//! (`spec/plugin-abi.md`, "Isolated execution").

use base64::Engine;
use isu_plugin_api::{
    Artifact, ArtifactMeta, BackendCode, BackendInfo, CompileOptions, ExecOptions, Literal,
    PluginDiagnostic, Program,
};
use serde::{Deserialize, Serialize};

/// The protocol's name and version, in the first line the plugin host writes.
pub const PROTOCOL: &str = "isu-plugin-host/1";

/// The id of the answer to a request the plugin host could not read: its
/// `err` is one diagnostic saying why. Requests are numbered from 1.
pub const UNREAD: u64 = 0;

/// The first line the plugin host writes: it loaded the plugin, or why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hello {
    Ready {
        protocol: String,
        /// The plugin-API version the plugin was built against, `MAJOR.MINOR`.
        api_version: String,
        info: Box<BackendInfo>,
    },
    Refused {
        code: String,
        message: String,
        fix: String,
    },
}

/// A request: an id the answer repeats, and the call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    #[serde(flatten)]
    pub call: Call,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", content = "params", rename_all = "snake_case")]
pub enum Call {
    Compile {
        program: Box<Program>,
        options: CompileOptions,
    },
    Execute {
        artifacts: Vec<WireArtifact>,
        args: Literal,
        options: ExecOptions,
    },
}

/// An answer: the id of its request, and `ok` or `err`. For `compile`, `ok`
/// is the artifacts and `err` a list of diagnostics; for `execute`, `ok` is
/// the value and `err` one diagnostic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub id: u64,
    #[serde(flatten)]
    pub reply: Reply,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    Ok(serde_json::Value),
    Err(serde_json::Value),
}

/// An artifact on the wire: its metadata and its bytes in base64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireArtifact {
    #[serde(flatten)]
    pub meta: ArtifactMeta,
    pub base64: String,
}

impl WireArtifact {
    pub fn from_artifact(a: &Artifact) -> WireArtifact {
        WireArtifact {
            meta: a.meta(),
            base64: base64::engine::general_purpose::STANDARD.encode(&a.bytes),
        }
    }

    pub fn to_artifact(&self) -> Result<Artifact, PluginDiagnostic> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&self.base64)
            .map_err(|e| {
                PluginDiagnostic::backend(
                    BackendCode::PluginBadOutput,
                    format!("the artifact {} is not base64: {e}", self.meta.file_name),
                )
            })?;
        Ok(Artifact::from_meta(self.meta.clone(), bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isu_plugin_api::ExecLimits;

    #[test]
    fn messages_have_their_documented_shape() {
        let execute = Request {
            id: 7,
            call: Call::Execute {
                artifacts: vec![WireArtifact::from_artifact(&Artifact::new(
                    "wasm",
                    "f.wasm",
                    vec![0, 97, 115, 109],
                ))],
                args: Literal::Object(Default::default()),
                options: ExecOptions::new(ExecLimits {
                    max_steps: 5,
                    max_size: 6,
                    max_memory: 7,
                }),
            },
        };
        let text = serde_json::to_string(&execute).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"id":7,"method":"execute","params":{"artifacts":[{"kind":"wasm","file_name":"f.wasm","base64":"AGFzbQ=="}],"args":{},"options":{"limits":{"max_steps":5,"max_size":6,"max_memory":7}}}}"#
        );
        let back: Result<Request, _> = serde_json::from_str(&text);
        assert_eq!(back.ok(), Some(execute));
        let ok = Response {
            id: 7,
            reply: Reply::Ok(serde_json::json!(3)),
        };
        assert_eq!(
            serde_json::to_string(&ok).unwrap_or_default(),
            r#"{"id":7,"ok":3}"#
        );
        let art = WireArtifact {
            meta: Artifact::new("x", "x", vec![]).meta(),
            base64: "!!".into(),
        };
        assert_eq!(
            art.to_artifact().err().map(|d| d.code),
            Some("plugin_bad_output".into())
        );
    }
}
