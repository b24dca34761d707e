//! The backend crate `isu plugins new NAME` writes: the toy backend of
//! `plugins/testing/toy` (the worked example of `spec/plugin-abi.md`),
//! renamed, with a `Cargo.toml` that depends on `isu_plugin_api` by the
//! plugin-API version of this `isu`, and a README. The toy's sources are
//! included as they are, so the template is always code the workspace builds
//! and the conformance suite passes.

use super::manifest::{is_plugin_name, library_file_name};
use isu_plugin_api::abi::PLUGIN_API_VERSION;
use std::path::{Path, PathBuf};

const TOY_LIB: &str = include_str!("../../../plugins/testing/toy/src/lib.rs");
const TOY_EVAL: &str = include_str!("../../../plugins/testing/toy/src/eval.rs");
const CARGO_TOML: &str = include_str!("template/Cargo.toml.in");
const README: &str = include_str!("template/README.md.in");

/// The toy's name, as its sources spell it.
const TOY: &str = "toy";
/// The toy's backend type.
const TOY_TYPE: &str = "ToyBackend";

/// A backend crate to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendCrate {
    /// `isu_backend_NAME` (`-` as `_`).
    pub crate_name: String,
    /// Its library's file name once built: `libisu_backend_NAME.so`.
    pub library: String,
    /// Each file: its path in the crate's folder, and its text.
    pub files: Vec<(PathBuf, String)>,
}

/// The crate of a backend named `name` (a plugin name, also its target).
/// `plugin_api`, when given, is a local `plugin-api` folder the crate builds
/// against through `[patch.crates-io]`; else that section is a comment.
pub fn backend_crate(name: &str, plugin_api: Option<&Path>) -> Result<BackendCrate, String> {
    if !is_plugin_name(name) {
        return Err(format!(
            "{name:?} is not a plugin name: lower-case letters, digits, `_` or `-`, starting with a letter"
        ));
    }
    let crate_name = format!("isu_backend_{}", name.replace('-', "_"));
    let library = library_file_name(&crate_name);
    let type_name = format!("{}Backend", camel(name));
    let rename = |text: &str| replace_word(&text.replace(TOY_TYPE, &type_name), TOY, name);
    let patch = match plugin_api {
        Some(dir) => format!(
            "# Builds against this local copy of isu's plugin API instead of crates.io;\n\
             # remove this section to use the published crate.\n\
             [patch.crates-io]\n\
             isu_plugin_api = {{ path = {:?} }}\n",
            dir.display().to_string()
        ),
        None => "# To build against a local copy of isu's plugin API (an unreleased isu, or\n\
                 # before isu_plugin_api is published), uncomment and set the path:\n\
                 # [patch.crates-io]\n\
                 # isu_plugin_api = { path = \"/path/to/isu/plugin-api\" }\n"
            .to_owned(),
    };
    let api = format!("{}.{}", PLUGIN_API_VERSION.major, PLUGIN_API_VERSION.minor);
    let fill = |text: &str| {
        text.replace("{crate}", &crate_name)
            .replace("{name}", name)
            .replace("{library}", &library)
            .replace("{api}", &api)
            .replace("{patch}", &patch)
    };
    Ok(BackendCrate {
        files: vec![
            ("Cargo.toml".into(), fill(CARGO_TOML)),
            ("README.md".into(), fill(README)),
            (".gitignore".into(), "/target\n".into()),
            (PathBuf::from("src/lib.rs"), rename(TOY_LIB)),
            (PathBuf::from("src/eval.rs"), rename(TOY_EVAL)),
        ],
        crate_name,
        library,
    })
}

/// `my-back_end` as `MyBackEnd`.
fn camel(name: &str) -> String {
    name.split(['-', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `text` with every whole word `word` (not inside a longer identifier)
/// replaced by `by`.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (i, _) in text.match_indices(word) {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            out.push_str(&text[copied..i]);
            out.push_str(by);
            copied = i + word.len();
        }
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_names() {
        assert_eq!(
            replace_word("toy `toy` toys toy_x xtoy \"toy\".toy.json", "toy", "mine"),
            "mine `mine` toys toy_x xtoy \"mine\".mine.json"
        );
        assert_eq!(replace_word("toytoy toy", "toy", "a"), "toytoy a");
        assert_eq!(camel("my-back_end"), "MyBackEnd");
        assert_eq!(camel("x"), "X");
    }

    #[test]
    fn the_crate_is_the_toy_renamed() {
        let c = backend_crate("my-vm", Some(Path::new("/src/isu/plugin-api"))).unwrap();
        assert_eq!(c.crate_name, "isu_backend_my_vm");
        let file = |p: &str| {
            c.files
                .iter()
                .find(|(path, _)| path == Path::new(p))
                .map(|(_, t)| t.as_str())
                .unwrap_or_else(|| panic!("no {p}"))
        };
        let lib = file("src/lib.rs");
        assert!(lib.contains("pub struct MyVmBackend;"), "{lib}");
        assert!(lib.contains("&[\"my-vm\"]"), "{lib}");
        assert!(lib.contains("isu_plugin_api::export_backend!(MyVmBackend);"));
        for (path, text) in &c.files {
            if path.extension().is_some_and(|e| e == "rs") {
                let toy = text.contains("toy") || text.contains("Toy");
                assert!(!toy, "{} still says toy", path.display());
            } else {
                for slot in ["{crate}", "{name}", "{library}", "{api}", "{patch}"] {
                    assert!(!text.contains(slot), "{}: {slot}", path.display());
                }
            }
        }
        let cargo = file("Cargo.toml");
        assert!(cargo.contains("name = \"isu_backend_my_vm\""));
        assert!(cargo.contains(&format!(
            "isu_plugin_api = \"{}.{}\"",
            PLUGIN_API_VERSION.major, PLUGIN_API_VERSION.minor
        )));
        assert!(cargo.contains(
            "\n[patch.crates-io]\nisu_plugin_api = { path = \"/src/isu/plugin-api\" }\n"
        ));
        let toml: Result<toml::Table, _> = toml::from_str(cargo);
        assert!(toml.is_ok(), "{toml:?}");
        let plain = backend_crate("x", None).unwrap();
        let cargo = &plain.files[0].1;
        assert!(cargo.contains("\n# [patch.crates-io]\n"), "{cargo}");
        assert!(!cargo.contains("\n[patch"), "{cargo}");
        assert!(backend_crate("Bad Name", None).is_err());
    }
}
