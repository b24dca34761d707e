//! The structs of `TYPES` in the generated module: one dataclass each, in
//! declaration order, and the table the runtime reads them by.
//!
//! A struct value is an object of its class (`_struct_point`, named by
//! [`names::structure`]), its fields attributes (`names::field`). The
//! dataclass gives `==` field by field in declaration order, which is Isu's
//! `eq` on two values of one struct (lists and dicts inside compare as Isu
//! compares arrays and maps); `__slots__` keeps the objects small. Objects
//! change in place (`p.x = 1`), so a struct is copied like a list or dict
//! wherever it could otherwise be shared (spec/semantics.md 2.2): its
//! class's `_copy` copies each field that can change in place.
//!
//! `_STRUCTS` gives the runtime, for the descriptor `("struct", "point")`,
//! the class, each field's JSON key, attribute and type descriptor, and the
//! size of every value of the struct when its fields fix it (ints, bools
//! and such structs: `point = {x: int, y: int}` is always 2), so that
//! `_from_json`, `_to_json`, `_size` and `_nodes` walk structs as they walk
//! arrays and maps, and `_size` need not walk a struct of fixed size.

use crate::py::Py;
use crate::pytype::{self, Copies};
use crate::writer::Writer;
use crate::{names, text};
use isu_plugin_api::{StructDef, Type};

/// The import the classes need, where the runtime's imports are.
pub const IMPORT: &str = "from dataclasses import dataclass as _dataclass";

/// Writes the classes of `types`, in declaration order; their `_copy`
/// methods may ask `copies` for helpers of nested collections.
pub fn classes(types: &[StructDef], copies: &mut Copies, w: &mut Writer) {
    for def in types {
        let class = names::structure(&def.name.name);
        let attrs: Vec<String> = def
            .fields
            .iter()
            .map(|f| names::field(&f.name.name))
            .collect();
        w.blank();
        w.blank();
        w.raw(format!("# TYPES: {}", text::comment(&declaration(def))));
        w.raw("@_dataclass");
        w.raw(format!("class {class}:"));
        let slots: Vec<String> = attrs.iter().map(|a| text::py_str(a)).collect();
        w.raw(format!("    __slots__ = ({})", tuple(&slots)));
        for (f, attr) in def.fields.iter().zip(&attrs) {
            w.raw(format!("    {attr}: {}", pytype::hint(&f.ty)));
        }
        w.blank();
        w.raw(format!("    def _copy(self) -> {class}:"));
        w.raw("        \"\"\"A copy that shares no list, dict or struct with this one.\"\"\"");
        let parts: Vec<String> = def
            .fields
            .iter()
            .zip(&attrs)
            .map(|(f, attr)| {
                let v = Py::atom(format!("self.{attr}"));
                if pytype::is_mutable(&f.ty) {
                    copies.copy(&f.ty, &v).text
                } else {
                    v.text
                }
            })
            .collect();
        w.raw(format!("        return {class}({})", parts.join(", ")));
    }
}

/// `_STRUCTS = {"point": (_struct_point, (("x", "x", "int"), ...), 2), ...}`.
pub fn table(types: &[StructDef]) -> String {
    let entries: Vec<String> = types
        .iter()
        .map(|def| {
            let fields: Vec<String> = def
                .fields
                .iter()
                .map(|f| {
                    format!(
                        "({}, {}, {})",
                        text::py_str(&f.name.name),
                        text::py_str(&names::field(&f.name.name)),
                        pytype::descriptor(&f.ty)
                    )
                })
                .collect();
            let fixed = fixed_size(def, types, types.len())
                .map_or_else(|| "None".to_owned(), |n| n.to_string());
            format!(
                "{}: ({}, ({}), {fixed})",
                text::py_str(&def.name.name),
                names::structure(&def.name.name),
                tuple(&fields)
            )
        })
        .collect();
    format!("_STRUCTS = {{{}}}", entries.join(", "))
}

/// The size of every value of the struct `def` (its fields plus their
/// sizes), when its fields fix it: each an int, a bool or a struct of fixed
/// size. `depth` bounds the structs inside it, which a valid program never
/// nests deeper than it declares structs (none holds itself).
fn fixed_size(def: &StructDef, types: &[StructDef], depth: usize) -> Option<usize> {
    let mut n = def.fields.len();
    for f in &def.fields {
        n += match &f.ty {
            Type::Int | Type::Float | Type::Bool => 0,
            Type::Struct(name) if depth > 0 => {
                let inner = types.iter().find(|d| d.name.name == *name)?;
                fixed_size(inner, types, depth - 1)?
            }
            _ => return None,
        };
    }
    Some(n)
}

/// `point = {x: int, y: int}`, as `TYPES` declares it.
fn declaration(def: &StructDef) -> String {
    let fields: Vec<String> = def
        .fields
        .iter()
        .map(|f| format!("{}: {}", f.name.name, f.ty))
        .collect();
    format!("{} = {{{}}}", def.name.name, fields.join(", "))
}

/// `a,` or `a, b`: the items of a Python tuple.
fn tuple(items: &[String]) -> String {
    match items {
        [one] => format!("{one},"),
        _ => items.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isu_plugin_api::{Decl, Ident, Span};

    fn def(name: &str, fields: &[(&str, Type)]) -> StructDef {
        let ident = |n: &str| Ident {
            name: n.into(),
            span: Span::default(),
        };
        StructDef {
            name: ident(name),
            fields: fields
                .iter()
                .map(|(n, t)| Decl {
                    name: ident(n),
                    ty: t.clone(),
                    span: Span::default(),
                })
                .collect(),
            span: Span::default(),
        }
    }

    #[test]
    fn a_class_per_struct_with_its_copy_and_table() {
        let types = [
            def("point", &[("x", Type::Int), ("from", Type::Int)]),
            def(
                "bag",
                &[
                    ("at", Type::Struct("point".into())),
                    ("xs", Type::array(Type::array(Type::Int))),
                ],
            ),
        ];
        let mut copies = Copies::default();
        let mut w = Writer::default();
        classes(&types, &mut copies, &mut w);
        let out = w.finish();
        assert!(out.contains("# TYPES: point = {x: int, from: int}\n@_dataclass\nclass _struct_point:\n    __slots__ = (\"x\", \"from_\")\n    x: int\n    from_: int\n"), "{out}");
        assert!(
            out.contains(
                "        return _struct_bag(self.at._copy(), _copy_list_list_int(self.xs))"
            ),
            "{out}"
        );
        assert!(copies
            .definitions()
            .join("\n")
            .contains("def _copy_list_list_int("));
        assert_eq!(
            table(&types[..1]),
            r#"_STRUCTS = {"point": (_struct_point, (("x", "x", "int"), ("from", "from_", "int")), 2)}"#
        );
        assert_eq!(table(&[]), "_STRUCTS = {}");
        let line = def(
            "line",
            &[("a", Type::Struct("point".into())), ("b", Type::Bool)],
        );
        let both = [types[0].clone(), line, types[1].clone()];
        let t = table(&both);
        assert!(t.contains("(\"b\", \"b\", \"bool\")), 4)"), "{t}");
        assert!(t.ends_with(", None)}"), "a bag holds an array: {t}");
        let selfish = def("me", &[("me", Type::Struct("me".into()))]);
        assert!(table(&[selfish]).ends_with(", None)}"), "no endless walk");
    }
}
