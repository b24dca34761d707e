//! Isu types in the generated Python: type hints, the type descriptors the
//! runtime converts JSON with, and the copies that keep arrays, maps and
//! structs values (spec/semantics.md 2.2).

use crate::names;
use crate::py::{Prec, Py};
use isu_plugin_api::Type;
use std::collections::BTreeSet;

/// The type hint: `int`, `list[str]`, `dict[int, list[bool]]`.
pub fn hint(ty: &Type) -> String {
    match ty {
        Type::Int => "int".into(),
        Type::Float => "float".into(),
        Type::Bool => "bool".into(),
        Type::String => "str".into(),
        Type::Array(e) => format!("list[{}]", hint(e)),
        Type::Map(k, v) => format!("dict[{}, {}]", hint(k), hint(v)),
        Type::Struct(name) => names::structure(name),
    }
}

/// The runtime's descriptor of a type: `"int"`, `("array", "int")`,
/// `("map", "string", "int")`, `("struct", "point")` (the module's
/// `_STRUCTS` holds each struct's class and fields).
pub fn descriptor(ty: &Type) -> String {
    match ty {
        Type::Int => "\"int\"".into(),
        Type::Float => "\"float\"".into(),
        Type::Bool => "\"bool\"".into(),
        Type::String => "\"string\"".into(),
        Type::Array(e) => format!("(\"array\", {})", descriptor(e)),
        Type::Map(k, v) => format!("(\"map\", {}, {})", descriptor(k), descriptor(v)),
        Type::Struct(name) => format!("(\"struct\", {})", crate::text::py_str(name)),
    }
}

/// Whether values of the type are Python objects that can change in place
/// (lists, dicts and struct objects), so that sharing one could be observed.
pub fn is_mutable(ty: &Type) -> bool {
    matches!(ty, Type::Array(_) | Type::Map(..) | Type::Struct(_))
}

/// The element (value) type of an array (map).
pub fn element(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Array(e) => Some(e),
        Type::Map(_, v) => Some(v),
        _ => None,
    }
}

/// Whether a collection holds only ints, bools and strings, so that a
/// shallow copy is a full copy.
fn is_flat(ty: &Type) -> bool {
    element(ty).is_some_and(|e| !is_mutable(e))
}

/// `list_int`, `dict_str_list_bool`: a type as part of a Python name.
fn mangle(ty: &Type) -> String {
    match ty {
        Type::Int => "int".into(),
        Type::Float => "float".into(),
        Type::Bool => "bool".into(),
        Type::String => "str".into(),
        Type::Array(e) => format!("list_{}", mangle(e)),
        Type::Map(k, v) => format!("dict_{}_{}", mangle(k), mangle(v)),
        Type::Struct(name) => names::structure(name).split_off(1),
    }
}

/// The copy helpers a module needs: the nested collection types it copies.
/// A struct copies itself: its class's `_copy` (written with the class,
/// `crate::structs`) copies each field that can change in place.
#[derive(Debug, Default)]
pub struct Copies {
    nested: BTreeSet<Type>,
}

impl Copies {
    /// A full copy of `v`, a value of the mutable type `ty`.
    pub fn copy(&mut self, ty: &Type, v: &Py) -> Py {
        if is_flat(ty) {
            Py::new(format!("{}.copy()", v.at(Prec::Primary)), Prec::Primary)
        } else if matches!(ty, Type::Struct(_)) {
            Py::new(format!("{}._copy()", v.at(Prec::Primary)), Prec::Primary)
        } else {
            Py::call(&self.function(ty), std::slice::from_ref(v))
        }
    }

    /// A function that copies a value of the mutable type `ty`:
    /// `list.copy`, `dict.copy`, `_struct_point._copy`, or a generated
    /// `_copy_...`.
    pub fn function(&mut self, ty: &Type) -> String {
        match ty {
            Type::Array(_) if is_flat(ty) => "list.copy".into(),
            Type::Map(..) if is_flat(ty) => "dict.copy".into(),
            Type::Struct(name) => format!("{}._copy", names::structure(name)),
            _ => {
                self.need(ty);
                format!("_copy_{}", mangle(ty))
            }
        }
    }

    fn need(&mut self, ty: &Type) {
        if matches!(ty, Type::Array(_) | Type::Map(..))
            && !is_flat(ty)
            && self.nested.insert(ty.clone())
        {
            if let Some(e) = element(ty) {
                self.need(e);
            }
        }
    }

    /// The definitions of the copy helpers, in a fixed order, as lines.
    pub fn definitions(&self) -> Vec<String> {
        let mut out = Vec::new();
        for ty in &self.nested {
            let name = format!("_copy_{}", mangle(ty));
            let h = hint(ty);
            let inner = |x: &str| match element(ty) {
                Some(e) if is_flat(e) => format!("{x}.copy()"),
                Some(Type::Struct(_)) => format!("{x}._copy()"),
                Some(e) => format!("_copy_{}({x})", mangle(e)),
                None => x.to_owned(),
            };
            out.push(String::new());
            out.push(String::new());
            out.push(format!("def {name}(v: {h}) -> {h}:"));
            let body = match ty {
                Type::Map(..) => format!("    return {{k: {} for k, x in v.items()}}", inner("x")),
                _ => format!("    return [{} for x in v]", inner("x")),
            };
            out.push(body);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_and_descriptors() {
        let t = Type::map(Type::Int, Type::array(Type::String));
        assert_eq!(hint(&t), "dict[int, list[str]]");
        assert_eq!(descriptor(&t), r#"("map", "int", ("array", "string"))"#);
    }

    #[test]
    fn flat_collections_copy_shallowly_and_nested_ones_through_helpers() {
        let mut c = Copies::default();
        let xs = Py::atom("xs");
        assert_eq!(c.copy(&Type::array(Type::Int), &xs).text, "xs.copy()");
        let grid = Type::array(Type::array(Type::array(Type::Int)));
        assert_eq!(c.copy(&grid, &xs).text, "_copy_list_list_list_int(xs)");
        assert_eq!(c.function(&Type::map(Type::String, Type::Int)), "dict.copy");
        let defs = c.definitions().join("\n");
        assert!(defs.contains("def _copy_list_list_int(v: list[list[int]]) -> list[list[int]]:\n    return [x.copy() for x in v]"), "{defs}");
        assert!(
            defs.contains("    return [_copy_list_list_int(x) for x in v]"),
            "{defs}"
        );
        let mut m = Copies::default();
        m.function(&Type::map(Type::Int, Type::array(Type::Bool)));
        assert!(m
            .definitions()
            .join("\n")
            .contains("return {k: x.copy() for k, x in v.items()}"));
    }

    #[test]
    fn structs_copy_themselves() {
        let mut c = Copies::default();
        let p = Type::Struct("point".into());
        assert_eq!(c.copy(&p, &Py::atom("p")).text, "p._copy()");
        assert_eq!(c.function(&p), "_struct_point._copy");
        let ps = Type::map(Type::String, Type::array(p.clone()));
        assert_eq!(
            c.copy(&ps, &Py::atom("m")).text,
            "_copy_dict_str_list_struct_point(m)"
        );
        let defs = c.definitions().join("\n");
        assert!(defs.contains("    return [x._copy() for x in v]"), "{defs}");
        assert_eq!(hint(&Type::array(p.clone())), "list[_struct_point]");
        assert_eq!(descriptor(&p), r#"("struct", "point")"#);
    }
}
