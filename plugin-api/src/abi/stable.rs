//! The FFI-safe types that cross the boundary, each the mirror of a plain
//! type of this crate, with the conversions both ways.

use crate::backend::{Artifact, BackendInfo, ExecLimits, PluginDiagnostic};
use crate::pack::{PackFunction, PackInfo};
use abi_stable::std_types::{ROption, RString, RVec};
use abi_stable::StableAbi;

/// The stable mirror of [`PluginDiagnostic`]: plain strings, rendered by the host.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct AbiDiagnostic {
    /// [`PluginDiagnostic::kind`].
    pub kind: RString,
    /// [`PluginDiagnostic::code`].
    pub code: RString,
    /// [`PluginDiagnostic::step`].
    pub step: ROption<RString>,
    /// [`PluginDiagnostic::message`].
    pub message: RString,
    /// [`PluginDiagnostic::hint`].
    pub hint: ROption<RString>,
}

/// The stable mirror of [`BackendInfo`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct AbiBackendInfo {
    /// [`BackendInfo::name`].
    pub name: RString,
    /// [`BackendInfo::version`].
    pub version: RString,
    /// [`BackendInfo::targets`].
    pub targets: RVec<RString>,
    /// [`BackendInfo::emits`].
    pub emits: RVec<RString>,
    /// [`BackendInfo::lacks`].
    pub lacks: RVec<RString>,
}

/// The stable mirror of [`Artifact`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct AbiArtifact {
    /// [`Artifact::kind`].
    pub kind: RString,
    /// [`Artifact::file_name`].
    pub file_name: RString,
    /// [`Artifact::bytes`].
    pub bytes: RVec<u8>,
}

/// The stable mirror of [`ExecLimits`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbiLimits {
    /// [`ExecLimits::max_steps`].
    pub max_steps: u64,
    /// [`ExecLimits::max_size`].
    pub max_size: u64,
}

/// The stable mirror of [`PackInfo`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct AbiPackInfo {
    /// [`PackInfo::namespace`].
    pub namespace: RString,
    /// [`PackInfo::version`].
    pub version: RString,
    /// [`PackInfo::functions`].
    pub functions: RVec<AbiPackFunction>,
}

/// The stable mirror of [`PackFunction`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct AbiPackFunction {
    /// [`PackFunction::name`].
    pub name: RString,
    /// [`PackFunction::signature`].
    pub signature: RString,
    /// [`PackFunction::doc`].
    pub doc: RString,
}

fn strings(v: &[String]) -> RVec<RString> {
    v.iter().map(|s| RString::from(s.as_str())).collect()
}

fn plain(v: &RVec<RString>) -> Vec<String> {
    v.iter().map(|s| s.as_str().to_owned()).collect()
}

fn opt(o: &ROption<RString>) -> Option<String> {
    o.as_ref().map(|s| s.as_str().to_owned()).into_option()
}

fn ropt(o: &Option<String>) -> ROption<RString> {
    o.as_deref().map(RString::from).into()
}

impl From<&PluginDiagnostic> for AbiDiagnostic {
    fn from(d: &PluginDiagnostic) -> Self {
        AbiDiagnostic {
            kind: d.kind.as_str().into(),
            code: d.code.as_str().into(),
            step: ropt(&d.step),
            message: d.message.as_str().into(),
            hint: ropt(&d.hint),
        }
    }
}

impl From<&AbiDiagnostic> for PluginDiagnostic {
    fn from(d: &AbiDiagnostic) -> Self {
        PluginDiagnostic {
            kind: d.kind.as_str().to_owned(),
            code: d.code.as_str().to_owned(),
            step: opt(&d.step),
            message: d.message.as_str().to_owned(),
            hint: opt(&d.hint),
        }
    }
}

impl From<&BackendInfo> for AbiBackendInfo {
    fn from(i: &BackendInfo) -> Self {
        AbiBackendInfo {
            name: i.name.as_str().into(),
            version: i.version.as_str().into(),
            targets: strings(&i.targets),
            emits: strings(&i.emits),
            lacks: strings(&i.lacks),
        }
    }
}

impl From<&AbiBackendInfo> for BackendInfo {
    fn from(i: &AbiBackendInfo) -> Self {
        BackendInfo {
            name: i.name.as_str().to_owned(),
            version: i.version.as_str().to_owned(),
            targets: plain(&i.targets),
            emits: plain(&i.emits),
            lacks: plain(&i.lacks),
        }
    }
}

impl From<&Artifact> for AbiArtifact {
    fn from(a: &Artifact) -> Self {
        AbiArtifact {
            kind: a.kind.as_str().into(),
            file_name: a.file_name.as_str().into(),
            bytes: a.bytes.as_slice().into(),
        }
    }
}

impl From<&AbiArtifact> for Artifact {
    fn from(a: &AbiArtifact) -> Self {
        Artifact {
            kind: a.kind.as_str().to_owned(),
            file_name: a.file_name.as_str().to_owned(),
            bytes: a.bytes.to_vec(),
        }
    }
}

impl From<ExecLimits> for AbiLimits {
    fn from(l: ExecLimits) -> Self {
        AbiLimits {
            max_steps: l.max_steps,
            max_size: l.max_size,
        }
    }
}

impl From<AbiLimits> for ExecLimits {
    fn from(l: AbiLimits) -> Self {
        ExecLimits {
            max_steps: l.max_steps,
            max_size: l.max_size,
        }
    }
}

impl From<&PackInfo> for AbiPackInfo {
    fn from(i: &PackInfo) -> Self {
        AbiPackInfo {
            namespace: i.namespace.as_str().into(),
            version: i.version.as_str().into(),
            functions: i
                .functions
                .iter()
                .map(|f| AbiPackFunction {
                    name: f.name.as_str().into(),
                    signature: f.signature.as_str().into(),
                    doc: f.doc.as_str().into(),
                })
                .collect(),
        }
    }
}

impl From<&AbiPackInfo> for PackInfo {
    fn from(i: &AbiPackInfo) -> Self {
        PackInfo {
            namespace: i.namespace.as_str().to_owned(),
            version: i.version.as_str().to_owned(),
            functions: i
                .functions
                .iter()
                .map(|f| PackFunction {
                    name: f.name.as_str().to_owned(),
                    signature: f.signature.as_str().to_owned(),
                    doc: f.doc.as_str().to_owned(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_convert_both_ways_without_loss() {
        let d = PluginDiagnostic::runtime("int_overflow", Some("S2_1"), "too big").with_hint("h");
        assert_eq!(PluginDiagnostic::from(&AbiDiagnostic::from(&d)), d);
        let b = PluginDiagnostic::backend("backend_failed", "no python3");
        assert_eq!(PluginDiagnostic::from(&AbiDiagnostic::from(&b)), b);
        let info = BackendInfo {
            name: "x".into(),
            version: "1.2.3".into(),
            targets: vec!["x".into(), "y".into()],
            emits: vec!["py".into()],
            lacks: vec!["map".into()],
        };
        assert_eq!(BackendInfo::from(&AbiBackendInfo::from(&info)), info);
        let art = Artifact {
            kind: "wasm".into(),
            file_name: "f.wasm".into(),
            bytes: vec![0, 97, 115, 109],
        };
        assert_eq!(Artifact::from(&AbiArtifact::from(&art)), art);
        let limits = ExecLimits {
            max_steps: 7,
            max_size: 9,
        };
        assert_eq!(ExecLimits::from(AbiLimits::from(limits)), limits);
        let pack = PackInfo {
            namespace: "math".into(),
            version: "0.1.0".into(),
            functions: vec![PackFunction {
                name: "GCD".into(),
                signature: "(int, int) -> int".into(),
                doc: "d".into(),
            }],
        };
        assert_eq!(PackInfo::from(&AbiPackInfo::from(&pack)), pack);
    }
}
