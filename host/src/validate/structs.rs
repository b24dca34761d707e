//! The structs of `TYPES`: names unique, at least one field each, fields
//! unique and of valid types, and no struct holding itself (fields are fixed,
//! so a value of a recursive struct could never be finished).

use super::scope;
use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{Program, Span, StructDef, Type};
use std::collections::BTreeSet;

/// The structs later checks may rely on, after reporting what is wrong with
/// the declarations: `duplicate_struct`, `empty_struct`, `duplicate_field`,
/// `unknown_struct`, `invalid_map_key_type` in a field, `recursive_struct`.
/// A struct with an error is left out of the answer; its name still counts
/// as declared, so that types naming it are not reported again.
pub(crate) fn check(program: &Program, diags: &mut Vec<Diagnostic>) -> Vec<StructDef> {
    let names: BTreeSet<&str> = program.types.iter().map(|d| d.name.name.as_str()).collect();
    let mut kept: Vec<StructDef> = Vec::new();
    let mut declared: Vec<&StructDef> = Vec::new();
    for def in &program.types {
        let name = &def.name.name;
        if let Some(first) = declared.iter().find(|k| k.name.name == *name) {
            diags.push(
                Diagnostic::error(
                    Code::DuplicateStruct,
                    format!("the struct {name} is declared again in TYPES"),
                )
                .at(def.name.span)
                .with_label(first.name.span, format!("{name} is first declared here"))
                .with_hint(format!("remove this declaration of {name} or rename it")),
            );
            continue;
        }
        declared.push(def);
        let mut ok = true;
        if def.fields.is_empty() {
            diags.push(
                Diagnostic::error(
                    Code::EmptyStruct,
                    format!("the struct {name} has no fields: a struct has at least one"),
                )
                .at(def.span)
                .with_hint(format!("declare its fields, such as {name} = {{x: int}}")),
            );
            ok = false;
        }
        let mut seen: Vec<&str> = Vec::new();
        for field in &def.fields {
            let f = field.name.name.as_str();
            if seen.contains(&f) {
                diags.push(
                    Diagnostic::error(
                        Code::DuplicateField,
                        format!("the field {f} is declared twice in the struct {name}"),
                    )
                    .at(field.name.span)
                    .with_hint("remove one of the two, or rename one"),
                );
                ok = false;
            }
            seen.push(f);
            let what = format!("the field {f} of {name}");
            ok &= scope::valid_type(&field.ty, field.span, &what, &names, diags).is_some();
        }
        if ok {
            kept.push(def.clone());
        }
    }
    for def in &kept {
        if let Some(path) = cycle(def, &kept) {
            diags.push(
                Diagnostic::error(
                    Code::RecursiveStruct,
                    format!(
                        "the struct {} holds itself ({}): fields are fixed, so no value of it could be finished",
                        def.name.name,
                        path.join(" holds ")
                    ),
                )
                .at(def.span)
                .with_hint("hold the inner values by another way, such as an array of ints indexing a separate array of structs"),
            );
        }
    }
    let recursive: Vec<String> = kept
        .iter()
        .filter(|d| cycle(d, &kept).is_some())
        .map(|d| d.name.name.clone())
        .collect();
    kept.retain(|d| !recursive.contains(&d.name.name));
    kept
}

/// The chain of structs from `def` back to itself, when there is one:
/// `["tree", "node", "tree"]`.
fn cycle(def: &StructDef, all: &[StructDef]) -> Option<Vec<String>> {
    let mut path = vec![def.name.name.clone()];
    let mut visited = BTreeSet::new();
    if reaches(def, &def.name.name, all, &mut path, &mut visited) {
        Some(path)
    } else {
        None
    }
}

fn reaches(
    from: &StructDef,
    target: &str,
    all: &[StructDef],
    path: &mut Vec<String>,
    visited: &mut BTreeSet<String>,
) -> bool {
    let mut inner = Vec::new();
    for field in &from.fields {
        structs_in(&field.ty, &mut inner);
    }
    for name in inner {
        path.push(name.to_owned());
        if name == target {
            return true;
        }
        if visited.insert(name.to_owned()) {
            if let Some(next) = all.iter().find(|d| d.name.name == name) {
                if reaches(next, target, all, path, visited) {
                    return true;
                }
            }
        }
        path.pop();
    }
    false
}

/// The names of the structs a type holds, at any depth.
pub(crate) fn structs_in<'a>(ty: &'a Type, out: &mut Vec<&'a str>) {
    match ty {
        Type::Int | Type::Float | Type::Bool | Type::String => {}
        Type::Array(e) => structs_in(e, out),
        Type::Map(k, v) => {
            structs_in(k, out);
            structs_in(v, out);
        }
        Type::Struct(name) => out.push(name),
    }
}

/// `unknown_struct` for each struct `ty` names that `names` does not hold.
pub(crate) fn unknown_in(
    ty: &Type,
    span: Span,
    what: &str,
    names: &BTreeSet<&str>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let mut inner = Vec::new();
    structs_in(ty, &mut inner);
    let mut ok = true;
    for name in inner {
        if !names.contains(name) {
            diags.push(
                Diagnostic::error(
                    Code::UnknownStruct,
                    format!("{what} has the type {ty}, but TYPES declares no struct {name}"),
                )
                .at(span)
                .with_hint(format!(
                    "declare it in TYPES, such as TYPES: [{name} = {{x: int}}]"
                )),
            );
            ok = false;
        }
    }
    ok
}
