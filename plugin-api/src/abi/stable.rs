//! The FFI-safe types that cross the boundary besides JSON text: an artifact
//! (its metadata as JSON, its bytes as bytes), a value (a pack call's
//! arguments and result, plugin API 2.2), and the JSON conversions both sides
//! use.

use crate::backend::{Artifact, ArtifactMeta, PluginDiagnostic};
use crate::backend_codes::BackendCode;
use crate::literal::Literal;
use abi_stable::std_types::{RString, RVec, Tuple2};
use abi_stable::StableAbi;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;

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

/// A [`Literal`] as it crosses the boundary in a pack's `call_at`: the same
/// cases, built of abi_stable's types, so a call's arguments and result cross
/// as values instead of JSON text to write and parse.
#[repr(u8)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub enum AbiValue {
    /// [`Literal::Bool`].
    Bool(bool),
    /// [`Literal::Int`].
    Int(i64),
    /// [`Literal::Str`].
    Str(RString),
    /// [`Literal::Array`].
    Array(RVec<AbiValue>),
    /// [`Literal::Object`]: its entries in key order.
    Object(RVec<Tuple2<RString, AbiValue>>),
}

impl AbiValue {
    /// The value of a borrowed literal, each vector allocated at its final
    /// length. Scalars, a pack call's usual arguments, take the inlined path.
    #[inline]
    pub fn of(lit: &Literal) -> AbiValue {
        match lit {
            Literal::Bool(b) => AbiValue::Bool(*b),
            Literal::Int(i) => AbiValue::Int(*i),
            _ => AbiValue::of_compound(lit),
        }
    }

    #[inline(never)]
    fn of_compound(lit: &Literal) -> AbiValue {
        match lit {
            Literal::Bool(b) => AbiValue::Bool(*b),
            Literal::Int(i) => AbiValue::Int(*i),
            Literal::Float(x) => AbiValue::float(*x),
            Literal::Str(s) => AbiValue::Str(s.as_str().into()),
            Literal::Array(items) => {
                let mut out = RVec::with_capacity(items.len());
                out.extend(items.iter().map(AbiValue::of));
                AbiValue::Array(out)
            }
            Literal::Object(entries) => {
                let mut out = RVec::with_capacity(entries.len());
                out.extend(
                    entries
                        .iter()
                        .map(|(k, v)| Tuple2(k.as_str().into(), AbiValue::of(v))),
                );
                AbiValue::Object(out)
            }
        }
    }

    /// A float, which no pack call passes or returns: a pack's signature
    /// names no float ([`crate::pack::Signature::parse`] refuses one), so
    /// no argument of a call the validator accepted is one. Should one come
    /// all the same, it crosses as the text of its value (Python's `repr`),
    /// which the pack's own argument check refuses as a string.
    fn float(x: f64) -> AbiValue {
        AbiValue::Str(crate::float::repr(x).into())
    }

    /// The value of an owned literal: its strings and vectors are moved, not
    /// copied, where the layouts allow (a string's bytes always are).
    pub fn from_literal(lit: Literal) -> AbiValue {
        match lit {
            Literal::Bool(b) => AbiValue::Bool(b),
            Literal::Int(i) => AbiValue::Int(i),
            Literal::Float(x) => AbiValue::float(x),
            Literal::Str(s) => AbiValue::Str(s.into()),
            Literal::Array(items) => {
                let mut out = RVec::with_capacity(items.len());
                out.extend(items.into_iter().map(AbiValue::from_literal));
                AbiValue::Array(out)
            }
            Literal::Object(entries) => {
                let mut out = RVec::with_capacity(entries.len());
                out.extend(
                    entries
                        .into_iter()
                        .map(|(k, v)| Tuple2(k.into(), AbiValue::from_literal(v))),
                );
                AbiValue::Object(out)
            }
        }
    }

    /// The literal of a borrowed value; `None` when an object repeats a key
    /// (which no literal can hold: the JSON it stands for would be refused
    /// as well). Scalars take the inlined path.
    #[inline]
    pub fn to_literal(&self) -> Option<Literal> {
        match self {
            AbiValue::Bool(b) => Some(Literal::Bool(*b)),
            AbiValue::Int(i) => Some(Literal::Int(*i)),
            _ => self.compound_to_literal(),
        }
    }

    #[inline(never)]
    fn compound_to_literal(&self) -> Option<Literal> {
        Some(match self {
            AbiValue::Bool(b) => Literal::Bool(*b),
            AbiValue::Int(i) => Literal::Int(*i),
            AbiValue::Str(s) => Literal::Str(s.as_str().to_owned()),
            AbiValue::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items.iter() {
                    out.push(item.to_literal()?);
                }
                Literal::Array(out)
            }
            AbiValue::Object(entries) => {
                let mut out = BTreeMap::new();
                for Tuple2(k, v) in entries.iter() {
                    if out.insert(k.as_str().to_owned(), v.to_literal()?).is_some() {
                        return None;
                    }
                }
                Literal::Object(out)
            }
        })
    }
}

/// A scalar, as the arguments and the result of a pack function whose
/// parameters and result are all scalars cross in `call_scalar` (plugin API
/// 2.3): a word and its tag, copied, with nothing to build, convert or free
/// on either side.
///
/// `Float` is in the layout so that the path serves every scalar of the
/// language; no pack signature names a float yet
/// ([`crate::pack::Signature::parse`] refuses one).
#[repr(u8)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// An `int`.
    Int(i64),
    /// A `float`.
    Float(f64),
    /// A `bool`.
    Bool(bool),
}

impl Scalar {
    /// The scalar a literal is, if it is one.
    #[inline]
    pub fn of(lit: &Literal) -> Option<Scalar> {
        match lit {
            Literal::Int(i) => Some(Scalar::Int(*i)),
            Literal::Float(x) => Some(Scalar::Float(*x)),
            Literal::Bool(b) => Some(Scalar::Bool(*b)),
            _ => None,
        }
    }

    /// The literal of the scalar.
    #[inline]
    pub fn to_literal(self) -> Literal {
        match self {
            Scalar::Int(i) => Literal::Int(i),
            Scalar::Float(x) => Literal::Float(x),
            Scalar::Bool(b) => Literal::Bool(b),
        }
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
    fn values_cross_without_loss() {
        let text =
            r#"[true, -9223372036854775808, "é\"", [], {}, {"10": [1, 2], "a": {"b": false}}]"#;
        let Ok(lit) = crate::json::from_str::<Literal>(text) else {
            panic!("the literal does not parse");
        };
        let abi = AbiValue::of(&lit);
        assert_eq!(abi, AbiValue::from_literal(lit.clone()));
        assert_eq!(abi.to_literal(), Some(lit));
        let AbiValue::Array(items) = &abi else {
            panic!("not an array: {abi:?}");
        };
        assert_eq!(
            items.capacity(),
            items.len(),
            "the vector is not allocated exactly"
        );
    }

    #[test]
    fn an_object_repeating_a_key_is_no_literal() {
        let entry = |v| Tuple2(RString::from("k"), AbiValue::Int(v));
        let twice = AbiValue::Object(vec![entry(1), entry(2)].into());
        assert_eq!(twice.to_literal(), None);
        let nested = AbiValue::Array(vec![AbiValue::Int(0), twice].into());
        assert_eq!(nested.to_literal(), None);
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
