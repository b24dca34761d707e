//! What a loop does once, before its first round, instead of in every round
//! (`isu_lang::analysis::stable`): it makes the collections it stores into
//! and never shares its own (copied if shared), so that their element stores
//! need no not-shared test; and it reads the lengths of the arrays it
//! indexes and never resizes, so that their index checks compare with a
//! register. Neither drops a check: an index is still checked against the
//! length, which is the same in every round; a store still writes a value
//! no one else holds, made so before the loop rather than at the store.

use super::{Lowering, Res};
use inkwell::values::PointerValue;
use isu_plugin_api::analysis::alias::changed_in_place;
use isu_plugin_api::analysis::stable::kept;
use isu_plugin_api::visit::{self, Visit};
use isu_plugin_api::{Block, Expr, ExprNode, Iter, Place, Type};
use std::collections::BTreeSet;

/// What one loop hoisted, undone when the loop is lowered.
#[derive(Debug, Default)]
pub struct Hoisted {
    owned: Vec<String>,
    lengths: Vec<String>,
}

impl<'ctx> Lowering<'ctx, '_> {
    /// Before the loop `LOOP iter body`: the not-shared tests and the
    /// lengths it need not repeat, for the variables no loop around it
    /// hoisted already.
    pub fn hoist(&mut self, iter: &Iter, body: &Block) -> Res<Hoisted> {
        let k = kept(iter, body, &self.decls);
        let mut h = Hoisted::default();
        for x in changed_in_place(body, &self.decls) {
            if k.keeps_own(&x) && !self.owned.contains(&x) {
                let var = self.var(&x)?.clone();
                let t = self.tdesc(&var.ty);
                let p = self.b.build_load(self.ptr_ty(), var.slot, "")?;
                // A LOCAL without a value stays so (its reads fail first).
                let own = self.call("isu_own_or_null", &[p.into(), t.into()])?;
                self.b.build_store(var.slot, own)?;
                self.owned.insert(x.clone());
                h.owned.push(x);
            }
        }
        let mut indexed = Indexed::default();
        indexed.visit_iter(iter);
        indexed.visit_block(body);
        for x in indexed.0 {
            let is_array = matches!(self.decls.ty(x), Some(Type::Array(_)));
            if is_array && k.keeps_length(x) && !self.lengths.contains_key(x) {
                let var = self.var(x)?.clone();
                let p = self.b.build_load(self.ptr_ty(), var.slot, "")?;
                let n = self.call("isu_len_or_zero", &[p.into()])?;
                let slot = self
                    .slots
                    .build_alloca(self.cx.i64_type(), &format!("{x}.len"))?;
                self.b.build_store(slot, n)?;
                self.lengths.insert(x.to_owned(), slot);
                h.lengths.push(x.to_owned());
            }
        }
        Ok(h)
    }

    /// After the loop: what it hoisted holds no more.
    pub fn unhoist(&mut self, h: Hoisted) {
        for x in h.owned {
            self.owned.remove(&x);
        }
        for x in h.lengths {
            self.lengths.remove(&x);
        }
    }

    /// The length of the array variable `name` a loop around the code read
    /// before its first round, if one did.
    pub fn hoisted_length(&self, name: &str) -> Option<PointerValue<'ctx>> {
        self.lengths.get(name).copied()
    }
}

/// The variables indexed as arrays or maps: the containers of
/// `(index (var x) ...)` reads and of the first level of element `TARGET`s.
#[derive(Default)]
struct Indexed<'a>(BTreeSet<&'a str>);

impl<'a> Visit<'a> for Indexed<'a> {
    fn visit_expr(&mut self, e: &'a Expr) {
        if let ExprNode::Index { base, .. } = &e.node {
            if let ExprNode::Var { name } = &base.node {
                self.0.insert(name);
            }
        }
        visit::walk_expr(self, e);
    }

    fn visit_place(&mut self, p: &'a Place) {
        if let Place::Index { base, .. } = p {
            if let Place::Var { name, .. } = &**base {
                self.0.insert(name);
            }
        }
        visit::walk_place(self, p);
    }
}
