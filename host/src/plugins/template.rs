//! The backend crate `isu plugins new NAME` writes: the toy backend of
//! `plugins/testing/toy` (the worked example of `spec/plugin-abi.md`),
//! renamed, with its expectation file, a test that runs the conformance
//! suite through `isu_plugin_api::conformance`, a `Cargo.toml` that depends
//! on `isu_plugin_api` by the plugin-API version of this `isu` (built
//! against the crates' sources this `isu` has, [`super::api_crates`]), and a
//! README. The toy's sources are included as they are, so the template is
//! always code the workspace builds and the conformance suite passes.

use super::api_crates::ApiCrates;
use super::manifest::{is_plugin_name, library_file_name};
use isu_plugin_api::abi::PLUGIN_API_VERSION;
use std::path::{Path, PathBuf};

const TOY_LIB: &str = include_str!("../../../plugins/testing/toy/src/lib.rs");
const TOY_EVAL: &str = include_str!("../../../plugins/testing/toy/src/eval.rs");
const TOY_EXPECT: &str = include_str!("../../../plugins/testing/toy/conformance.toml");
const CARGO_TOML: &str = include_str!("template/Cargo.toml.in");
const README: &str = include_str!("template/README.md.in");
const TEST: &str = include_str!("template/conformance.rs.in");

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
/// `api`, when given, holds the sources of the plugin API's crates that the
/// crate builds against through `[patch.crates-io]`; else that section is a
/// comment and the crates come from crates.io. `isu`, when given, is the
/// program its test runs (`ISU` in `.cargo/config.toml`).
pub fn backend_crate(
    name: &str,
    api: Option<&ApiCrates>,
    isu: Option<&Path>,
) -> Result<BackendCrate, String> {
    if !is_plugin_name(name) {
        return Err(format!(
            "{name:?} is not a plugin name: lower-case letters, digits, `_` or `-`, starting with a letter"
        ));
    }
    let crate_name = format!("isu_backend_{}", name.replace('-', "_"));
    let library = library_file_name(&crate_name);
    let type_name = format!("{}Backend", camel(name));
    let rename = |text: &str| replace_word(&text.replace(TOY_TYPE, &type_name), TOY, name);
    let patch = match api {
        Some(api) => {
            let mut text = "# Builds against these sources of isu's plugin API (those of the isu that\n\
                            # made this crate) instead of crates.io; remove this section to use the\n\
                            # published crates.\n\
                            [patch.crates-io]\n"
                .to_owned();
            for (krate, dir) in api.patch() {
                text.push_str(&format!(
                    "{krate} = {{ path = {} }}\n",
                    toml_string(&dir.display().to_string())
                ));
            }
            text
        }
        None => "# To build against a local copy of isu's plugin API (an unreleased isu, or\n\
                 # before isu_plugin_api is published), uncomment and set the paths:\n\
                 # [patch.crates-io]\n\
                 # isu_plugin_api = { path = \"/path/to/isu/share/isu/crates/isu_plugin_api-VERSION\" }\n\
                 # isu_lang = { path = \"/path/to/isu/share/isu/crates/isu_lang-VERSION\" }\n"
            .to_owned(),
    };
    let api_version = format!("{}.{}", PLUGIN_API_VERSION.major, PLUGIN_API_VERSION.minor);
    let fill = |text: &str| {
        text.replace("{crate}", &crate_name)
            .replace("{name}", name)
            .replace("{library}", &library)
            .replace("{api}", &api_version)
            .replace("{patch}", &patch)
    };
    let mut files = vec![
        ("Cargo.toml".into(), fill(CARGO_TOML)),
        ("README.md".into(), fill(README)),
        (".gitignore".into(), "/target\n".into()),
        ("conformance.toml".into(), rename(TOY_EXPECT)),
        (PathBuf::from("src/lib.rs"), own_doc(&rename(TOY_LIB), name)),
        (PathBuf::from("src/eval.rs"), rename(TOY_EVAL)),
        (PathBuf::from("tests/conformance.rs"), fill(TEST)),
    ];
    if let Some(isu) = isu {
        files.push((
            PathBuf::from(".cargo/config.toml"),
            format!(
                "# The isu that made this crate, which its test runs (`isu_plugin_api::conformance`);\n\
                 # an ISU of the environment wins.\n\
                 [env]\n\
                 ISU = {{ value = {}, force = false }}\n",
                toml_string(&isu.display().to_string())
            ),
        ));
    }
    Ok(BackendCrate {
        files,
        crate_name,
        library,
    })
}

/// `lib` with its first paragraph of crate documentation (the toy's, on
/// being the guide's example) saying what the new crate is instead.
fn own_doc(lib: &str, name: &str) -> String {
    let rest = lib.split_once("//!\n").map_or(lib, |(_, rest)| rest);
    format!(
        "//! The `{name}` backend, made by `isu plugins new {name}` from the example\n\
         //! of Isu's `spec/plugin-abi.md` (\"Writing a backend\").\n//!\n{rest}"
    )
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    toml_edit::Value::from(text).to_string()
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
        let api = ApiCrates {
            plugin_api: PathBuf::from("/opt/isu/share/isu/crates/isu_plugin_api-2.3.0"),
            lang: Some(PathBuf::from("/opt/isu/share/isu/crates/isu_lang-2.3.0")),
            lang_from_registry: false,
            origin: super::super::api_crates::Origin::Install,
        };
        let c = backend_crate("my-vm", Some(&api), Some(Path::new("/opt/isu/bin/isu"))).unwrap();
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
        assert!(lib.starts_with("//! The `my-vm` backend, made by `isu plugins new my-vm`"));
        assert!(!lib.contains("worked minimal example"), "{lib}");
        for (path, text) in &c.files {
            // The README says where the crate came from; the code is renamed.
            let toy = text.contains("toy") || text.contains("Toy");
            assert!(
                !toy || path == Path::new("README.md"),
                "{} still says toy",
                path.display()
            );
            // The toy's own sources are copied, not filled.
            if !path.starts_with("src") {
                for slot in ["{crate}", "{name}", "{library}", "{api}", "{patch}"] {
                    assert!(!text.contains(slot), "{}: {slot}", path.display());
                }
            }
        }
        let test = file("tests/conformance.rs");
        assert!(
            test.contains("Suite::for_test(env!(\"CARGO_PKG_NAME\"), \"my-vm\")"),
            "{test}"
        );
        let expect = file("conformance.toml");
        assert!(
            expect.contains("`isu conformance --target my-vm --expect FILE`"),
            "{expect}"
        );
        assert!(toml::from_str::<toml::Table>(expect).is_ok());
        let config: toml::Table = toml::from_str(file(".cargo/config.toml")).unwrap();
        assert_eq!(
            config["env"]["ISU"]["value"].as_str(),
            Some("/opt/isu/bin/isu")
        );
        assert_eq!(config["env"]["ISU"]["force"].as_bool(), Some(false));
        let cargo = file("Cargo.toml");
        assert!(cargo.contains("name = \"isu_backend_my_vm\""));
        assert!(cargo.contains(&format!(
            "isu_plugin_api = \"{}.{}\"",
            PLUGIN_API_VERSION.major, PLUGIN_API_VERSION.minor
        )));
        let toml: toml::Table = toml::from_str(cargo).unwrap();
        let patch = &toml["patch"]["crates-io"];
        assert_eq!(
            patch["isu_plugin_api"]["path"].as_str(),
            Some("/opt/isu/share/isu/crates/isu_plugin_api-2.3.0")
        );
        assert_eq!(
            patch["isu_lang"]["path"].as_str(),
            Some("/opt/isu/share/isu/crates/isu_lang-2.3.0")
        );
        let plain = backend_crate("x", None, None).unwrap();
        let cargo = &plain.files[0].1;
        assert!(cargo.contains("\n# [patch.crates-io]\n"), "{cargo}");
        assert!(!cargo.contains("\n[patch"), "{cargo}");
        assert!(!plain.files.iter().any(|(p, _)| p.starts_with(".cargo")));
        assert!(backend_crate("Bad Name", None, None).is_err());
    }
}
