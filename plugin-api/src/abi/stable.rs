//! The FFI-safe types that cross the boundary besides JSON text: an artifact
//! (its metadata as JSON, its bytes as bytes), and the JSON conversions both
//! sides use.

use crate::backend::{Artifact, ArtifactMeta, PluginDiagnostic};
use crate::backend_codes::BackendCode;
use abi_stable::std_types::{RString, RVec};
use abi_stable::StableAbi;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// One artifact: [`ArtifactMeta`] as JSON, and the bytes.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct AbiArtifact {
    /// The [`ArtifactMeta`] as JSON.
    pub meta_json: RString,
    /// [`Artifact::bytes`].
    pub bytes: RVec<u8>,
}

impl AbiArtifact {
    /// The stable form of `a`; its metadata that cannot be written as JSON
    /// is a `host_bug`.
    pub fn from_artifact(a: &Artifact) -> Result<AbiArtifact, PluginDiagnostic> {
        Ok(AbiArtifact {
            meta_json: to_json(&a.meta(), "an artifact's metadata")?.into(),
            bytes: a.bytes.as_slice().into(),
        })
    }

    /// The plain artifact; `reader` says who reads it, for the diagnostic
    /// of metadata that does not parse.
    pub fn to_artifact(
        &self,
        bad: fn(String) -> PluginDiagnostic,
    ) -> Result<Artifact, PluginDiagnostic> {
        let meta: ArtifactMeta = from_json(self.meta_json.as_str(), "an artifact's metadata", bad)?;
        Ok(Artifact::from_meta(meta, self.bytes.to_vec()))
    }
}

/// `value` as JSON; failing can only mean a bug of the side that writes.
pub(crate) fn to_json<T: Serialize + ?Sized>(
    value: &T,
    what: &str,
) -> Result<String, PluginDiagnostic> {
    serde_json::to_string(value).map_err(|e| {
        PluginDiagnostic::backend(
            BackendCode::HostBug,
            format!("{what} could not be written as JSON: {e}"),
        )
    })
}

/// JSON text as a `T`, or the diagnostic `bad` makes of why not.
pub(crate) fn from_json<T: DeserializeOwned>(
    text: &str,
    what: &str,
    bad: fn(String) -> PluginDiagnostic,
) -> Result<T, PluginDiagnostic> {
    crate::json::from_str(text).map_err(|e| {
        let shown: String = text.chars().take(80).collect();
        bad(format!("{what} could not be read (`{shown}`): {e}"))
    })
}

/// A diagnostic as JSON text (a diagnostic that cannot be written becomes
/// one that says so).
pub(crate) fn diagnostic_json(d: &PluginDiagnostic) -> RString {
    to_json(d, "a diagnostic")
        .or_else(|e| to_json(&e, "a diagnostic"))
        .unwrap_or_default()
        .into()
}

/// Diagnostics as a JSON array.
pub(crate) fn diagnostics_json(ds: &[PluginDiagnostic]) -> RString {
    to_json(ds, "diagnostics")
        .or_else(|e| to_json(&[e], "diagnostics"))
        .unwrap_or_default()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(m: String) -> PluginDiagnostic {
        PluginDiagnostic::backend(BackendCode::PluginBadOutput, m)
    }

    #[test]
    fn artifacts_cross_without_loss() {
        let a = Artifact::new("wasm", "f.wasm", vec![0, 97, 115, 109]);
        let x = Artifact::new("executable", "f", vec![1]).as_executable();
        for art in [a, x] {
            let abi = AbiArtifact::from_artifact(&art);
            assert_eq!(abi.and_then(|a| a.to_artifact(bad)), Ok(art));
        }
        let broken = AbiArtifact {
            meta_json: "{\"kind\": 1}".into(),
            bytes: RVec::new(),
        };
        let err = broken.to_artifact(bad).err().map(|d| d.code);
        assert_eq!(err.as_deref(), Some("plugin_bad_output"));
    }

    #[test]
    fn diagnostics_cross_as_json() {
        let d = PluginDiagnostic::runtime("int_overflow", Some("S2_1"), "too big").with_note("n");
        let back: Result<PluginDiagnostic, _> = from_json(diagnostic_json(&d).as_str(), "d", bad);
        assert_eq!(back, Ok(d.clone()));
        let back: Result<Vec<PluginDiagnostic>, _> =
            from_json(diagnostics_json(&[d.clone(), d.clone()]).as_str(), "d", bad);
        assert_eq!(back, Ok(vec![d.clone(), d]));
    }
}
