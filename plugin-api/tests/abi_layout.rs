//! The layouts of the root modules, as abi_stable records them, printed to
//! a reviewed golden file (`tests/abi_layout.txt`): an accidental change of
//! the ABI (a field moved, a type changed) fails here before any plugin
//! meets it. `ISU_BLESS=1` rewrites the file after a deliberate change,
//! which goes with a new plugin-API version (`spec/plugin-abi.md`).
//!
//! Sizes and alignments are those of a 64-bit target.
#![cfg(target_pointer_width = "64")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use isu_plugin_api::abi::__private::abi_stable::type_layout::{TLData, TLFunction, TypeLayout};
use isu_plugin_api::abi::__private::abi_stable::StableAbi;
use isu_plugin_api::abi::{BackendModRef, PackModRef, PLUGIN_API_VERSION};
use std::collections::VecDeque;
use std::fmt::Write as _;

/// A type's name as abi_stable prints it (`PrefixRef<'a, BackendMod>`);
/// types of one name are told apart by their fields, printed below them.
fn label(layout: &TypeLayout) -> String {
    layout.full_type().to_string().trim().to_owned()
}

/// abi_stable's text of an enum on one line, without the package versions
/// (a patch release of abi_stable changes no layout).
fn enum_text(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !w.starts_with("package:") && !w.starts_with("version:"))
        .collect();
    words.join(" ")
}

/// A function pointer's parameters and return type.
fn signature(function: &TLFunction) -> String {
    let names = function.param_names.as_str();
    let names: Vec<&str> = names.split(',').filter(|n| !n.is_empty()).collect();
    let params: Vec<String> = function
        .param_type_layouts
        .iter()
        .enumerate()
        .map(|(i, ty)| format!("{}: {}", names.get(i).unwrap_or(&"_"), label(ty())))
        .collect();
    let ret = function
        .return_type_layout()
        .map_or_else(|| "()".to_owned(), |r| label(r()));
    format!("fn({}) -> {ret}", params.join(", "))
}

/// Every type reachable from `root`, once each, breadth first: its size and
/// alignment, and its fields with their types (function pointers with their
/// parameters and return type).
fn describe(root: &'static TypeLayout) -> String {
    let mut out = String::new();
    let mut seen = Vec::new();
    let mut queue = VecDeque::from([root]);
    while let Some(layout) = queue.pop_front() {
        if seen.contains(&layout.get_utypeid()) {
            continue;
        }
        seen.push(layout.get_utypeid());
        let name = label(layout);
        let _ = writeln!(
            out,
            "{name}: size {}, align {}",
            layout.size(),
            layout.alignment()
        );
        let fields = match layout.data() {
            TLData::Primitive(p) => {
                let _ = writeln!(out, "  primitive {p:?}");
                None
            }
            TLData::Opaque => {
                let _ = writeln!(out, "  opaque");
                None
            }
            TLData::Struct { fields } => Some(fields),
            TLData::Union { fields } => {
                let _ = writeln!(out, "  union");
                Some(fields)
            }
            TLData::Enum(e) => {
                let _ = writeln!(out, "  enum {}", enum_text(&e.to_string()));
                None
            }
            TLData::PrefixType(p) => {
                let _ = writeln!(
                    out,
                    "  prefix type, fields from #{} optional",
                    p.first_suffix_field
                );
                Some(p.fields)
            }
        };
        for field in fields.iter().flat_map(|f| f.iter()) {
            let _ = writeln!(out, "  {}: {}", field.name(), label(field.layout()));
            for function in field.function_range().iter() {
                let _ = writeln!(out, "    {}", signature(&function));
            }
        }
        queue.extend(layout.shared_vars().type_layouts().iter().map(|f| f()));
    }
    out
}

#[test]
fn the_root_modules_have_their_reviewed_layouts() {
    let text = format!(
        "# The root modules of plugin API {PLUGIN_API_VERSION}, as abi_stable sees them.\n\
         # A change here is a change of the ABI: review it, give it a new plugin-API\n\
         # version, then ISU_BLESS=1 rewrites this file.\n\n\
         ## BackendModRef\n{}\n## PackModRef\n{}",
        describe(<BackendModRef as StableAbi>::LAYOUT),
        describe(<PackModRef as StableAbi>::LAYOUT),
    );
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/abi_layout.txt");
    if std::env::var_os("ISU_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(path, &text).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(path).unwrap_or_default();
    if golden != text {
        let first = golden
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(golden.lines().count().min(text.lines().count()));
        panic!(
            "the root modules' layout differs from {path} from line {}: this changes the ABI.\n\
             If that is meant, raise the plugin-API version and bless (ISU_BLESS=1).\nNow:\n{text}",
            first + 1
        );
    }
}

/// The fields of the prefix type a root module reference points to, each
/// with its type (and a function pointer's signature).
fn prefix_fields(root: &'static TypeLayout) -> Vec<String> {
    let mut queue = VecDeque::from([root]);
    while let Some(layout) = queue.pop_front() {
        if let TLData::PrefixType(p) = layout.data() {
            return p
                .fields
                .iter()
                .map(|field| {
                    let functions: Vec<String> = field
                        .function_range()
                        .iter()
                        .map(|f| signature(&f))
                        .collect();
                    format!(
                        "{}: {} {}",
                        field.name(),
                        label(field.layout()),
                        functions.join(" ")
                    )
                })
                .collect();
        }
        queue.extend(layout.shared_vars().type_layouts().iter().map(|f| f()));
    }
    Vec::new()
}

/// The frozen pack root modules of the older minor versions, which the host
/// loads older packs with, are the current one without the fields added
/// since: a drift of one would refuse the packs built against it.
#[test]
fn the_older_pack_layouts_are_prefixes_of_the_current_one() {
    use isu_plugin_api::abi::__private::{v2_0, v2_1, v2_2};
    let current = prefix_fields(<PackModRef as StableAbi>::LAYOUT);
    let v2_2 = prefix_fields(<v2_2::PackModRef as StableAbi>::LAYOUT);
    let v2_1 = prefix_fields(<v2_1::PackModRef as StableAbi>::LAYOUT);
    let v2_0 = prefix_fields(<v2_0::PackModRef as StableAbi>::LAYOUT);
    assert_eq!(current.len(), 7, "{current:#?}");
    assert_eq!(v2_2, current[..6], "plugin API 2.2 lacks only call_scalar");
    assert_eq!(v2_1, current[..5], "plugin API 2.1 lacks call_at too");
    assert_eq!(v2_0, current[..4], "plugin API 2.0 lacks call_within too");
}
