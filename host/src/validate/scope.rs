//! The one scope of a function: the names of `ARGS`, `STATE` and `LOCAL`, with
//! their declared types. Building it reports repeated names and map types whose
//! key is neither `int` nor `string`.
//!
//! The function's `NAME` is not in this scope: no expression can name a
//! function except through `(call ...)`, which takes only standard and pack
//! functions, so a variable may share the function's name.

use super::structs;
use super::suggest;
use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{Program, Span, StructDef, Type};
use std::collections::{BTreeMap, BTreeSet};

/// The section that declares a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    Args,
    State,
    Local,
}

impl Section {
    pub(crate) fn keyword(self) -> &'static str {
        match self {
            Section::Args => "ARGS",
            Section::State => "STATE",
            Section::Local => "LOCAL",
        }
    }
}

/// A declared variable.
#[derive(Debug, Clone)]
pub(crate) struct Var {
    pub section: Section,
    /// The position in its section (for `STATE`, the order of initialization).
    pub index: usize,
    /// The declared type, `None` when it is invalid (already reported), so
    /// that uses of the variable say nothing more.
    pub ty: Option<Type>,
    /// The span of the declaration's name.
    pub span: Span,
}

/// The function scope.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scope {
    vars: BTreeMap<String, Var>,
    /// Names in declaration order (ARGS, STATE, LOCAL), for suggestions.
    order: Vec<String>,
    /// `FUNC RETURNS`, `None` when it is invalid (already reported).
    pub returns: Option<Type>,
    /// The structs of `TYPES` without errors in their declarations.
    pub structs: Vec<StructDef>,
    /// Every name `TYPES` declares, with errors or without.
    pub struct_names: BTreeSet<String>,
}

impl Scope {
    /// The scope of `program`. Reports `duplicate_declaration` (the first
    /// declaration of a name counts) and `invalid_map_key_type`.
    pub(crate) fn build(program: &Program, diags: &mut Vec<Diagnostic>) -> Scope {
        let structs = structs::check(program, diags);
        let names: BTreeSet<&str> = program.types.iter().map(|d| d.name.name.as_str()).collect();
        let mut scope = Scope {
            returns: valid_type(
                &program.func.returns,
                program.func.span,
                "FUNC RETURNS",
                &names,
                diags,
            ),
            structs,
            struct_names: names.iter().map(|n| (*n).to_owned()).collect(),
            ..Scope::default()
        };
        let args = program
            .func
            .args
            .iter()
            .map(|d| (&d.name, &d.ty, d.span, Section::Args));
        let state = program
            .state
            .iter()
            .map(|s| (&s.name, &s.ty, s.span, Section::State));
        let locals = program
            .locals
            .iter()
            .map(|d| (&d.name, &d.ty, d.span, Section::Local));
        let mut counts = [0usize; 3];
        for (name, ty, span, section) in args.chain(state).chain(locals) {
            let index = counts[section as usize];
            counts[section as usize] += 1;
            let what = format!("{} variable {}", section.keyword(), name.name);
            let ty = valid_type(ty, span, &what, &names, diags);
            if let Some(first) = scope.vars.get(&name.name) {
                diags.push(duplicate(&name.name, name.span, section, first));
                continue;
            }
            scope.order.push(name.name.clone());
            scope.vars.insert(
                name.name.clone(),
                Var {
                    section,
                    index,
                    ty,
                    span: name.span,
                },
            );
        }
        scope
    }

    /// The struct declared as `name`, when its declaration is valid.
    pub(crate) fn struct_def(&self, name: &str) -> Option<&StructDef> {
        self.structs.iter().find(|d| d.name.name == name)
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Var> {
        self.vars.get(name)
    }

    /// The declared name closest to `name`, if one is near enough to be a misspelling.
    pub(crate) fn closest(&self, name: &str) -> Option<&str> {
        suggest::closest(name, self.order.iter().map(String::as_str))
    }
}

/// `duplicate_declaration` of `name` in `section`, pointing back at the first.
fn duplicate(name: &str, span: Span, section: Section, first: &Var) -> Diagnostic {
    let where_first = if first.section == section {
        format!("earlier in {}", section.keyword())
    } else {
        format!("in {}", first.section.keyword())
    };
    Diagnostic::error(
        Code::DuplicateDeclaration,
        format!(
            "{name} is declared again in {}; it is already declared {where_first}",
            section.keyword()
        ),
    )
    .at(span)
    .with_label(first.span, format!("{name} is first declared here"))
    .with_hint(format!(
        "ARGS, STATE and LOCAL share one scope: remove this declaration of {name} or rename one of the two"
    ))
}

/// The type, or `None` after reporting each map in it whose key type is not
/// `int` or `string` and each struct it names that `structs` does not hold.
/// `what` names the declaration (`STATE variable m`).
pub(crate) fn valid_type(
    ty: &Type,
    span: Span,
    what: &str,
    structs: &BTreeSet<&str>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Type> {
    let known = structs::unknown_in(ty, span, what, structs, diags);
    let mut bad = Vec::new();
    bad_maps(ty, &mut bad);
    for (map, key, value) in &bad {
        diags.push(
            Diagnostic::error(
                Code::InvalidMapKeyType,
                if *map == ty {
                    format!("{what} has the type {ty}, whose key type {key} is neither int nor string")
                } else {
                    format!(
                        "{what} has the type {ty}, in which {map} has the key type {key}, neither int nor string"
                    )
                },
            )
            .at(span)
            .with_expected("int or string")
            .with_actual(key.to_string())
            .with_hint(format!(
                "use {} or {} instead of {map}",
                Type::map(Type::Int, (*value).clone()),
                Type::map(Type::String, (*value).clone())
            )),
        );
    }
    (bad.is_empty() && known).then(|| ty.clone())
}

/// Every map type inside `ty` whose key cannot key a map, outermost first, with
/// its key and value types.
fn bad_maps<'a>(ty: &'a Type, out: &mut Vec<(&'a Type, &'a Type, &'a Type)>) {
    match ty {
        Type::Int | Type::Float | Type::Bool | Type::String | Type::Struct(_) => {}
        Type::Array(e) => bad_maps(e, out),
        Type::Map(k, v) => {
            if !k.is_map_key() {
                out.push((ty, k, v));
            }
            bad_maps(k, out);
            bad_maps(v, out);
        }
    }
}

/// Whether every map in `ty` has an `int` or `string` key.
pub(crate) fn is_valid(ty: &Type) -> bool {
    let mut bad = Vec::new();
    bad_maps(ty, &mut bad);
    bad.is_empty()
}
