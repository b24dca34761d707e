//! The types of struct values and fields: `(struct NAME (field EXPR) ...)`
//! gives every declared field exactly once, `(field E x)` and the place
//! `(field PLACE x)` name a field the struct declares.

use super::report::{Role, Want};
use super::{suggest, Checker};
use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{FieldInit, Ident, Span, Type};

impl Checker {
    /// `(struct NAME (field EXPR) ...)`: reports `unknown_struct`,
    /// `unknown_field`, `duplicate_field` and `missing_struct_field`, and
    /// types each value as its field's declared type.
    pub(super) fn struct_value(
        &mut self,
        name: &str,
        fields: &mut [FieldInit],
        span: Span,
    ) -> Option<Type> {
        let Some(def) = self.scope.struct_def(name).cloned() else {
            if !self.scope.struct_names.contains(name) {
                let hint = match suggest::closest(
                    name,
                    self.scope.struct_names.iter().map(String::as_str),
                ) {
                    Some(near) => format!("did you mean {near}?"),
                    None => format!("declare it in TYPES, such as TYPES: [{name} = {{x: int}}]"),
                };
                self.diags.push(
                    Diagnostic::error(
                        Code::UnknownStruct,
                        format!("(struct {name} ...) names no struct of TYPES"),
                    )
                    .at(span)
                    .in_step(self.step.as_ref())
                    .with_hint(hint),
                );
            }
            for f in fields.iter_mut() {
                self.expr(&mut f.value, &Want::Quiet);
            }
            return None;
        };
        let mut given: Vec<String> = Vec::new();
        for f in fields.iter_mut() {
            let field = f.name.name.clone();
            if given.contains(&field) {
                self.diags.push(
                    Diagnostic::error(
                        Code::DuplicateField,
                        format!("(struct {name} ...) gives the field {field} twice"),
                    )
                    .at(f.name.span)
                    .in_step(self.step.as_ref())
                    .with_hint("give each field once"),
                );
                self.expr(&mut f.value, &Want::Quiet);
                continue;
            }
            given.push(field.clone());
            match def.field(&field) {
                Some(ty) => {
                    let role = Role::Field(name.to_owned(), field);
                    self.expr(&mut f.value, &Want::Is(ty.clone(), role));
                }
                None => {
                    self.unknown_field(name, &f.name, &def.fields);
                    self.expr(&mut f.value, &Want::Quiet);
                }
            }
        }
        let missing: Vec<&str> = def
            .fields
            .iter()
            .map(|d| d.name.name.as_str())
            .filter(|d| !given.iter().any(|g| g == d))
            .collect();
        if !missing.is_empty() {
            let with: Vec<String> = missing.iter().map(|m| format!("({m} EXPR)")).collect();
            self.diags.push(
                Diagnostic::error(
                    Code::MissingStructField,
                    format!(
                        "(struct {name} ...) lacks the field{} {}: a struct value gives every field",
                        if missing.len() == 1 { "" } else { "s" },
                        missing.join(", ")
                    ),
                )
                .at(span)
                .in_step(self.step.as_ref())
                .with_expected(missing.join(", "))
                .with_hint(format!("add {}", with.join(" "))),
            );
        }
        Some(Type::Struct(name.to_owned()))
    }

    /// The type of field `field` of a value of type `base`, reporting a base
    /// that is no struct and a field the struct does not declare.
    pub(super) fn field_of(
        &mut self,
        base: &Type,
        field: &Ident,
        span: Span,
        base_shown: &str,
    ) -> Option<Type> {
        let Type::Struct(name) = base else {
            self.type_error(
                span,
                format!(
                    "{base_shown} is {base}, not a struct, so it has no field {}",
                    field.name
                ),
                Some(
                    "(field E x) reads a field of a struct value; an array element is (index E i)"
                        .into(),
                ),
            );
            return None;
        };
        let def = self.scope.struct_def(name)?.clone();
        match def.field(&field.name) {
            Some(t) => Some(t.clone()),
            None => {
                self.unknown_field(name, field, &def.fields);
                None
            }
        }
    }

    fn unknown_field(&mut self, name: &str, field: &Ident, declared: &[isu_plugin_api::Decl]) {
        let names: Vec<&str> = declared.iter().map(|d| d.name.name.as_str()).collect();
        let hint = match suggest::closest(&field.name, names.iter().copied()) {
            Some(near) => format!(
                "did you mean {near}? {name} has the fields {}",
                names.join(", ")
            ),
            None => format!("{name} has the fields {}", names.join(", ")),
        };
        self.diags.push(
            Diagnostic::error(
                Code::UnknownField,
                format!("the struct {name} has no field {}", field.name),
            )
            .at(field.span)
            .in_step(self.step.as_ref())
            .with_hint(hint),
        );
    }
}
