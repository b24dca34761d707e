//! What the generator needs to know about the whole program before it writes
//! a line: each variable's kind, type and Python name, which variables the
//! code reads and which it binds (Python's own notion), and the language's
//! shared facts (`isu_plugin_api::analysis`): what changes in place, what an
//! `each` loop holds, definite assignment, liveness and value bounds.

use isu_plugin_api::analysis::alias::Aliasing;
use isu_plugin_api::analysis::assigned::Assigned;
use isu_plugin_api::analysis::bounds::Bounds;
use isu_plugin_api::analysis::liveness::Liveness;
use isu_plugin_api::analysis::proof::checked;
use isu_plugin_api::analysis::vars::Vars;
use isu_plugin_api::analysis::{Decls, Section};
use isu_plugin_api::update::{in_place, Update};
use isu_plugin_api::PluginDiagnostic;
use isu_plugin_api::{Block, Expr, ExprNode, Node, Place, Program, StructDef, Type};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone)]
pub struct Var {
    pub section: Section,
    pub ty: Type,
    /// Its Python name.
    pub py: String,
}

#[derive(Debug)]
pub struct Facts {
    pub vars: BTreeMap<String, Var>,
    pub decls: Decls,
    /// What each step reads and assigns, and what the program reads.
    pub reads: Vars,
    /// Variables some statement of the generated code binds: a plain
    /// `ASSIGN` to the variable, `s += t` on a string variable, or a loop
    /// over it. (Other in-place updates and element assignments change the
    /// object a variable already holds.)
    pub bound: BTreeSet<String>,
    pub aliasing: Aliasing,
    pub must: Assigned,
    pub live: Liveness,
    pub bounds: Bounds,
    /// The structs of `TYPES`, in declaration order.
    pub structs: Vec<StructDef>,
}

impl Facts {
    /// The facts of `program`; its bounds as the checker confirms them
    /// (`isu_lang::analysis::proof::checked`), whose refusal is an error.
    pub fn of(program: &Program) -> Result<Facts, PluginDiagnostic> {
        let decls = Decls::of(program);
        let vars = decls
            .iter()
            .map(|(name, ty, section)| {
                let var = Var {
                    section,
                    ty: ty.clone(),
                    py: crate::names::local(name),
                };
                (name.to_owned(), var)
            })
            .collect();
        let mut bound = BTreeSet::new();
        binds(&program.body, &mut bound);
        let bounds = checked(program).map_err(|d| {
            crate::lower::invalid(format!("the bounds of dropped checks do not check out {d}"))
        })?;
        Ok(Facts {
            vars,
            reads: Vars::of(program),
            bound,
            aliasing: Aliasing::of(program, &decls),
            must: Assigned::must(program),
            live: Liveness::of(program),
            bounds,
            decls,
            structs: program.types.clone(),
        })
    }

    /// The type of the field `field` of values of the struct type `ty`.
    pub fn field_type(&self, ty: &Type, field: &str) -> Option<&Type> {
        let Type::Struct(name) = ty else {
            return None;
        };
        self.structs
            .iter()
            .find(|d| d.name.name == *name)?
            .field(field)
    }

    /// The type of a variable the program declares.
    pub fn var(&self, name: &str) -> Option<&Var> {
        self.vars.get(name)
    }

    /// Whether the generated code reads the variable.
    pub fn is_read(&self, name: &str) -> bool {
        self.reads.is_read(name)
    }
}

/// Adds the variables the block's statements bind in Python.
fn binds(b: &Block, out: &mut BTreeSet<String>) {
    for step in &b.steps {
        match &step.node {
            Node::Assign { target, expr } => {
                if let Place::Var { name, .. } = target {
                    let rebinds = match in_place(target, expr) {
                        None => true,
                        // `s += t` binds `s`.
                        Some(u) => u.op == Update::Concat && expr.ty == Some(Type::String),
                    };
                    if rebinds {
                        out.insert(name.clone());
                    }
                }
            }
            Node::Loop { iter, .. } => out.extend(iter.var().map(|v| v.name.clone())),
            _ => {}
        }
        for inner in step.node.blocks() {
            binds(inner, out);
        }
    }
}

/// Whether a block holds a LOOP at any depth.
pub fn has_loop(b: &Block) -> bool {
    b.steps
        .iter()
        .any(|s| matches!(s.node, Node::Loop { .. }) || s.node.blocks().into_iter().any(has_loop))
}

/// Whether the first thing that can fail while evaluating `e` (left to right)
/// is a read of the place `p` itself. Then `e` fails exactly where storing
/// into `p` would, so evaluating `e` before the place's keys, as Python's
/// `p[k] = e` does, changes no outcome.
pub fn leads_with_read(e: &Expr, p: &Place) -> bool {
    if e.is_place(p) {
        return true;
    }
    match &e.node {
        ExprNode::Unary { arg, .. } => leads_with_read(arg, p),
        ExprNode::Binary { lhs, .. } => leads_with_read(lhs, p),
        ExprNode::Index { base, .. } => leads_with_read(base, p),
        ExprNode::Call { args, .. } => args.first().is_some_and(|a| leads_with_read(a, p)),
        ExprNode::Field { base, .. } => leads_with_read(base, p),
        ExprNode::Struct { fields, .. } => {
            fields.first().is_some_and(|f| leads_with_read(&f.value, p))
        }
        ExprNode::List { items } => items.first().is_some_and(|i| leads_with_read(i, p)),
        ExprNode::If { cond, .. } => leads_with_read(cond, p),
        ExprNode::Const { .. } | ExprNode::Var { .. } => false,
    }
}
