//! Editing a manifest's text for `isu plugins add` and `isu plugins remove`,
//! keeping everything else of it as it was: comments, order, formatting.

use super::PluginKind;
use toml_edit::{value, Array, ArrayOfTables, DocumentMut, Item, Table};

/// The first lines of a manifest that `isu plugins add` creates.
pub const NEW_MANIFEST: &str = "\
# Plugins for isu, one [[plugin]] each (spec/plugin-abi.md, \"Discovery\").
# `isu plugins add FILE` and `isu plugins remove NAME` edit this file.
";

/// A plugin to write into a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    pub name: String,
    pub kind: PluginKind,
    /// The library, as the manifest should spell it.
    pub file: String,
    /// For a pack: its namespace.
    pub namespace: Option<String>,
}

fn document(text: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>()
        .map_err(|e| format!("it is not TOML: {}", e.message()))
}

fn plugin_tables(doc: &mut DocumentMut) -> Result<&mut ArrayOfTables, String> {
    if !doc.contains_key("plugin") {
        doc.insert("plugin", Item::ArrayOfTables(ArrayOfTables::new()));
    }
    doc.get_mut("plugin")
        .and_then(Item::as_array_of_tables_mut)
        .ok_or_else(|| "its `plugin` is not an array of [[plugin]] tables".to_owned())
}

fn named(t: &Table, name: &str) -> bool {
    t.get("name").and_then(Item::as_str) == Some(name)
}

/// Takes `name` out of the `disable` list; drops the list when it empties.
/// Whether it was there.
fn undisable(doc: &mut DocumentMut, name: &str) -> bool {
    let Some(list) = doc.get_mut("disable").and_then(Item::as_array_mut) else {
        return false;
    };
    let before = list.len();
    list.retain(|v| v.as_str() != Some(name));
    let removed = list.len() != before;
    if list.is_empty() {
        doc.remove("disable");
    }
    removed
}

/// `text` with `entry` in it, replacing the plugin of the same name in its
/// place (its other settings go), else added at the end; its name is taken
/// out of `disable`. Returns the text and whether a plugin was replaced.
pub fn with_plugin(text: &str, entry: &NewEntry) -> Result<(String, bool), String> {
    let mut doc = document(text)?;
    undisable(&mut doc, &entry.name);
    let tables = plugin_tables(&mut doc)?;
    let mut fresh = Table::new();
    fresh.insert("name", value(entry.name.as_str()));
    fresh.insert("kind", value(entry.kind.as_str()));
    fresh.insert("file", value(entry.file.as_str()));
    if let Some(ns) = &entry.namespace {
        fresh.insert("namespace", value(ns.as_str()));
    }
    let existing = tables.iter_mut().find(|t| named(t, &entry.name));
    let replaced = existing.is_some();
    match existing {
        Some(t) => {
            // Key by key, so the comments on the kept keys stay.
            let stale: Vec<String> = t
                .iter()
                .map(|(k, _)| k.to_owned())
                .filter(|k| !fresh.contains_key(k))
                .collect();
            for k in stale {
                t.remove(&k);
            }
            for (k, v) in fresh.iter() {
                match t.get_mut(k) {
                    Some(old) => *old = v.clone(),
                    None => {
                        t.insert(k, v.clone());
                    }
                }
            }
        }
        None => tables.push(fresh),
    }
    Ok((render(&doc, text), replaced))
}

/// `text` without the plugin `name`; `None` when it lists no such plugin.
pub fn without_plugin(text: &str, name: &str) -> Result<Option<String>, String> {
    let mut doc = document(text)?;
    let Some(tables) = doc.get_mut("plugin").and_then(Item::as_array_of_tables_mut) else {
        return Ok(None);
    };
    let Some(i) = tables.iter().position(|t| named(t, name)) else {
        return Ok(None);
    };
    let gone = tables.remove(i);
    // Comments above the table that a blank line sets apart from it are not
    // its own: they stay, above what follows.
    let kept = detached_comments(&gone);
    if let Some(next) = tables.get_mut(i) {
        let prefix = next.decor().prefix().and_then(|p| p.as_str()).unwrap_or("");
        let joined = format!("{kept}{prefix}");
        next.decor_mut().set_prefix(joined);
    } else if !kept.is_empty() {
        let trailing = doc.trailing().as_str().unwrap_or("").to_owned();
        doc.set_trailing(format!("{kept}{trailing}"));
    }
    if doc
        .get("plugin")
        .and_then(Item::as_array_of_tables)
        .is_some_and(ArrayOfTables::is_empty)
    {
        doc.remove("plugin");
    }
    Ok(Some(render(&doc, text)))
}

/// The lines above a table's header up to the last blank line among them.
fn detached_comments(t: &Table) -> String {
    let prefix = t.decor().prefix().and_then(|p| p.as_str()).unwrap_or("");
    match prefix.rfind("\n\n") {
        Some(i) => prefix[..i + 2].to_owned(),
        None => String::new(),
    }
}

/// `text` with `name` in its `disable` list; `None` when it is there already.
pub fn with_disabled(text: &str, name: &str) -> Result<Option<String>, String> {
    let mut doc = document(text)?;
    if !doc.contains_key("disable") {
        doc.insert("disable", value(Array::new()));
    }
    let list = doc
        .get_mut("disable")
        .and_then(Item::as_array_mut)
        .ok_or_else(|| "its `disable` is not a list of names".to_owned())?;
    if list.iter().any(|v| v.as_str() == Some(name)) {
        return Ok(None);
    }
    list.push(name);
    Ok(Some(render(&doc, text)))
}

/// The document's text; a new manifest starts with [`NEW_MANIFEST`].
fn render(doc: &DocumentMut, before: &str) -> String {
    let body = doc.to_string();
    if before.trim().is_empty() {
        format!("{NEW_MANIFEST}\n{}", body.trim_start())
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backend(name: &str, file: &str) -> NewEntry {
        NewEntry {
            name: name.into(),
            kind: PluginKind::Backend,
            file: file.into(),
            namespace: None,
        }
    }

    #[test]
    fn adding_to_a_new_manifest_writes_a_header_and_the_plugin() {
        let (text, replaced) = with_plugin("", &backend("mine", "/x/libmine.so")).unwrap();
        assert!(!replaced);
        assert_eq!(
            text,
            format!(
                "{NEW_MANIFEST}\n[[plugin]]\nname = \"mine\"\nkind = \"backend\"\nfile = \"/x/libmine.so\"\n"
            )
        );
    }

    #[test]
    fn adding_keeps_comments_replaces_in_place_and_undisables() {
        let text = "# mine\ndisable = [\"toy\", \"wasm\"]\n\n[[plugin]]\n# the fast one\nname = \"wasm\"\nkind = \"backend\"\nfile = \"old.so\"\ntargets = [\"wasm\"]\n\n[[plugin]]\nname = \"b\"\nkind = \"backend\"\nfile = \"b.so\"\n";
        let (out, replaced) = with_plugin(text, &backend("wasm", "/new.so")).unwrap();
        assert!(replaced);
        assert_eq!(
            out,
            "# mine\ndisable = [\"toy\"]\n\n[[plugin]]\n# the fast one\nname = \"wasm\"\nkind = \"backend\"\nfile = \"/new.so\"\n\n[[plugin]]\nname = \"b\"\nkind = \"backend\"\nfile = \"b.so\"\n"
        );
        let pack = NewEntry {
            name: "m".into(),
            kind: PluginKind::Pack,
            file: "m.so".into(),
            namespace: Some("math".into()),
        };
        let (out, _) = with_plugin(&out, &pack).unwrap();
        assert!(out.ends_with(
            "[[plugin]]\nname = \"m\"\nkind = \"pack\"\nfile = \"m.so\"\nnamespace = \"math\"\n"
        ));
        let (out, _) = with_plugin("disable = [\"x\"]\n", &backend("x", "x.so")).unwrap();
        assert!(!out.contains("disable"), "{out}");
    }

    #[test]
    fn removing_and_disabling() {
        let text = "# keep me\n\n# about a\n[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"a.so\"\n\n[[plugin]]\nname = \"b\"\nkind = \"backend\"\nfile = \"b.so\"\n";
        let out = without_plugin(text, "a").unwrap().unwrap();
        assert_eq!(
            out,
            "# keep me\n\n\n[[plugin]]\nname = \"b\"\nkind = \"backend\"\nfile = \"b.so\"\n"
        );
        let last = without_plugin(&out, "b").unwrap().unwrap();
        assert_eq!(last, "# keep me\n\n\n");
        assert_eq!(without_plugin(text, "zzz"), Ok(None));
        assert_eq!(without_plugin("", "a"), Ok(None));
        let out = with_disabled(text, "wasm").unwrap().unwrap();
        assert!(
            out.starts_with("disable = [\"wasm\"]\n# keep me\n"),
            "{out}"
        );
        let again = with_disabled(&out, "toy").unwrap().unwrap();
        assert!(again.contains("disable = [\"wasm\", \"toy\"]"), "{again}");
        assert_eq!(with_disabled(&again, "toy"), Ok(None));
        assert!(with_disabled("disable = 3\n", "x").is_err());
        assert!(with_plugin("plugin = 3\n", &backend("x", "x")).is_err());
        assert!(with_plugin("[[plugin]\n", &backend("x", "x")).is_err());
    }
}
