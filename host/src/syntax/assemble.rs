//! From the raw tree to IIR: sections in their order, fields in theirs, step
//! IDs, and the lowering of every expression, type and literal. Every check
//! that the grammar leaves open on purpose is made here, with a message that
//! names the step and says what to write.

use super::cst::{self, Field, HeaderForm, SectionBody, StepBody, Value};
use super::layout::{self, Anchor, Layout, ListEnd};
use super::lower::Lower;
use super::token::{Kw, Pos};
use super::PatchFile;
use crate::diag::{Code, Diagnostic, Fix};
use isu_plugin_api::{
    Block, Decl, Example, Expr, Func, Ident, Io, Iter, Node, Place, Program, Span, StateVar, Step,
    StepId, StructDef, IIR_FORMAT,
};

use super::vocab::SECTION_ORDER;

mod patch;

/// Builds the program and records its layout; reports into `diags`. The
/// program is returned only when every part of it could be built.
pub fn program(
    text: &str,
    file: cst::File,
    end: Pos,
    diags: &mut Vec<Diagnostic>,
    layout: &mut Layout,
) -> Option<Program> {
    let mut a = Assembler {
        text,
        diags,
        layout,
        auto_id: false,
        structs: Vec::new(),
    };
    a.program(file, end)
}

/// Builds a patch file. `recovered` says that steps with grammar errors were
/// dropped, so an entry's count of steps proves nothing.
pub fn patch(
    text: &str,
    patch: cst::Patch,
    recovered: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<PatchFile> {
    // A patch's steps may leave out their IDs, as under AUTO_ID.
    let mut layout = Layout::default();
    let mut a = Assembler {
        text,
        diags,
        layout: &mut layout,
        auto_id: true,
        structs: patch::struct_names(&patch),
    };
    a.patch(patch, recovered)
}

struct Assembler<'t, 'd> {
    text: &'t str,
    diags: &'d mut Vec<Diagnostic>,
    layout: &'d mut Layout,
    /// Whether steps may leave out their IDs (META AUTO_ID, or a patch).
    auto_id: bool,
    /// The names `TYPES` declares, which are types wherever a type is written.
    structs: Vec<String>,
}

/// Why `want` is needed: `IF needs COND, THEN and ELSE, in this order`.
pub(super) fn needs(kind: Kw, want: Kw) -> String {
    let order = Kw::field_order(kind);
    if order.len() == 1 {
        format!("{} needs {}", kind.as_str(), want.as_str())
    } else {
        format!(
            "{} needs {}, in this order",
            kind.as_str(),
            list_words(order)
        )
    }
}

/// What to write for a missing field, where the message alone does not say.
fn missing_hint(kind: Kw, want: Kw) -> Option<&'static str> {
    match (kind, want) {
        (Kw::Loop, Kw::Iter) => Some(
            "a LOOP that runs until a BREAK has ITER: (while (const true)); one over an array, ITER: (each x (var xs)); one that counts, ITER: (range i (const 0) (var n))",
        ),
        _ => None,
    }
}

/// `COND, THEN and ELSE`.
pub(super) fn list_words(kws: &[Kw]) -> String {
    let names: Vec<&str> = kws.iter().map(|k| k.as_str()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Who holds a list of fields, for messages.
struct Holder {
    /// `S2`, `the IF at line 5`, `FUNC`.
    name: String,
    /// `IF`, `FUNC`.
    kind: Kw,
    step: Option<StepId>,
    span: Span,
    /// Where the step starts, for a step's fields (`None` for a section's).
    at: Option<u32>,
}

impl Assembler<'_, '_> {
    fn lower(&mut self, step: Option<StepId>) -> Lower<'_> {
        Lower {
            text: self.text,
            step,
            diags: self.diags,
            structs: &self.structs,
        }
    }

    fn program(&mut self, file: cst::File, end: Pos) -> Option<Program> {
        let mut slots: [Option<cst::Section>; 7] = Default::default();
        let mut last_rank: Option<usize> = None;
        let mut ok = true;
        for section in file.sections {
            let rank = SECTION_ORDER
                .iter()
                .position(|&k| k == section.kw)
                .unwrap_or(0);
            self.layout
                .anchor(section.kw_span.lo, Anchor::Section(section.kw));
            if let Some(first) = &slots[rank] {
                self.diags.push(
                    Diagnostic::error(
                        Code::SectionOrder,
                        format!(
                            "{} appears twice: a program has one {} section",
                            section.kw.as_str(),
                            section.kw.as_str()
                        ),
                    )
                    .at(section.kw_span)
                    .with_label(first.kw_span, "first here")
                    .with_hint("merge the two into one"),
                );
                ok = false;
                continue;
            }
            if let Some(last) = last_rank.filter(|&l| l > rank) {
                let after = SECTION_ORDER[last];
                self.diags.push(
                    Diagnostic::warning(
                        Code::SectionOrder,
                        format!(
                            "{} comes before {} in the canonical order of sections (META, FUNC, TYPES, IO, STATE, LOCAL, STEPS)",
                            section.kw.as_str(),
                            after.as_str()
                        ),
                    )
                    .at(section.kw_span)
                    .with_hint("accepted; `isu fmt` writes the sections in order"),
                );
            }
            last_rank = Some(last_rank.map_or(rank, |l| l.max(rank)));
            slots[rank] = Some(section);
        }
        let [meta, func, types, io, state, local, steps] = slots;
        // Every name TYPES declares is a type before any type is lowered.
        if let Some(SectionBody::Types(items)) = types.as_ref().map(|s| &s.body) {
            self.structs = items.iter().map(|i| i.name.text.clone()).collect();
        }
        let types = match types {
            Some(s) => match s.body {
                SectionBody::Types(items) => self.struct_defs(items),
                _ => None,
            },
            None => Some(Vec::new()),
        };
        let end_span = end.to(end);

        let auto_id = match meta {
            Some(m) => {
                let [auto] = self.fields::<1>(Self::section_holder(&m), fields_of(m.body));
                match auto.map(|f| f.value) {
                    Some(Value::Bool(b)) => b,
                    _ => {
                        ok = false;
                        false
                    }
                }
            }
            None => false,
        };
        self.auto_id = auto_id;

        let func = match func {
            Some(f) => self.func(f),
            None => {
                let at = steps.as_ref().map_or(end_span, |s| s.kw_span);
                self.diags.push(
                    Diagnostic::error(
                        Code::MissingSection,
                        "missing FUNC section: a program gives FUNC: with NAME, ARGS and RETURNS after META (if any) and before IO".to_owned(),
                    )
                    .at(at)
                    .with_hint("FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int"),
                );
                None
            }
        };

        let io = match io {
            Some(s) => self.io(s),
            None => Some(Io {
                input: Vec::new(),
                output: Vec::new(),
                span: Span::default(),
            }),
        };

        let state = match state {
            Some(s) => match s.body {
                SectionBody::State(items) => {
                    let vars: Vec<Option<StateVar>> =
                        items.into_iter().map(|i| self.state_var(i)).collect();
                    vars.into_iter().collect::<Option<Vec<_>>>()
                }
                _ => None,
            },
            None => Some(Vec::new()),
        };

        let locals = match local {
            Some(s) => match s.body {
                SectionBody::Local(decls) => {
                    let close = s.span.hi.saturating_sub(1);
                    self.layout.locals = Some(ListEnd {
                        close: layout_span(self.text, close, close + 1, s.span),
                        empty: decls.is_empty(),
                    });
                    self.decls(decls)
                }
                _ => None,
            },
            None => Some(Vec::new()),
        };

        let body = match steps {
            Some(s) => match s.body {
                SectionBody::Steps(root) => {
                    self.layout.steps_at = Some(s.kw_span);
                    self.layout.anchor(root.span.lo, Anchor::Root);
                    self.layout
                        .anchor(closer_at(self.text, root.span), Anchor::RootEnd);
                    self.block(root)
                }
                _ => None,
            },
            None => {
                self.diags.push(
                    Diagnostic::error(
                        Code::MissingSection,
                        "missing STEPS section: the steps come last, as STEPS: SEQ: BEGIN ... END"
                            .to_owned(),
                    )
                    .at(end_span)
                    .with_hint("STEPS:\n  SEQ: BEGIN\n    RETURN:\n      EXPR: (const 0)\n  END"),
                );
                None
            }
        };

        if !ok {
            return None;
        }
        Some(Program {
            format: IIR_FORMAT.to_owned(),
            auto_id,
            func: func?,
            types: types?,
            io: io?,
            state: state?,
            locals: locals?,
            body: body?,
        })
    }

    fn section_holder(s: &cst::Section) -> Holder {
        Holder {
            name: s.kw.as_str().to_owned(),
            kind: s.kw,
            step: None,
            span: s.kw_span,
            at: None,
        }
    }

    fn func(&mut self, s: cst::Section) -> Option<Func> {
        let holder = Self::section_holder(&s);
        let span = s.span;
        let [name, args, returns] = self.fields::<3>(holder, fields_of(s.body));
        let name = match name?.value {
            Value::Name(n) => Ident {
                name: n.text,
                span: n.span,
            },
            _ => return None,
        };
        let args = match args?.value {
            Value::Decls(d) => self.decls(d),
            _ => None,
        };
        let returns = match returns?.value {
            Value::Type(t) => self.lower(None).ty(t),
            _ => None,
        };
        Some(Func {
            name,
            args: args?,
            returns: returns?,
            span,
        })
    }

    fn io(&mut self, s: cst::Section) -> Option<Io> {
        let holder = Self::section_holder(&s);
        let span = s.span;
        let [input, output] = self.fields::<2>(holder, fields_of(s.body));
        let input = input.and_then(|f| self.examples(f, true));
        let output = output.and_then(|f| self.examples(f, false));
        Some(Io {
            input: input?,
            output: output?,
            span,
        })
    }

    fn examples(&mut self, f: Field, objects: bool) -> Option<Vec<Example>> {
        let Value::Json(j) = f.value else {
            return None;
        };
        let what = f.kw.as_str();
        let cst::JsonNode::Array(items) = j.node else {
            let hint = if objects {
                "INPUT: [{\"xs\": [1, 2]}, {\"xs\": []}] gives two examples"
            } else {
                "OUTPUT: [3, 0] gives the results of two examples"
            };
            self.diags.push(
                Diagnostic::error(
                    Code::InvalidLiteral,
                    format!("{what} must be a JSON array with one element per example"),
                )
                .at(j.span)
                .with_hint(hint),
            );
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items {
            let span = item.span;
            if objects && !matches!(item.node, cst::JsonNode::Object(_)) {
                self.diags.push(
                    Diagnostic::error(
                        Code::InvalidLiteral,
                        "each INPUT example is a JSON object from argument names to values"
                            .to_owned(),
                    )
                    .at(span)
                    .with_hint(
                        "for example {\"xs\": [1, 2]}; a function without arguments takes {}",
                    ),
                );
                ok = false;
                continue;
            }
            match self.lower(None).literal(item) {
                Some(value) => out.push(Example { value, span }),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn decls(&mut self, decls: Vec<cst::Decl>) -> Option<Vec<Decl>> {
        let out: Vec<Option<Decl>> = decls
            .into_iter()
            .map(|d| {
                let ty = self.lower(None).ty(d.ty)?;
                Some(Decl {
                    name: Ident {
                        name: d.name.text,
                        span: d.name.span,
                    },
                    ty,
                    span: d.span,
                })
            })
            .collect();
        out.into_iter().collect()
    }

    fn struct_defs(&mut self, items: Vec<cst::StructItem>) -> Option<Vec<StructDef>> {
        let out: Vec<Option<StructDef>> = items
            .into_iter()
            .map(|i| {
                let fields = self.decls(i.fields);
                Some(StructDef {
                    name: Ident {
                        name: i.name.text,
                        span: i.name.span,
                    },
                    fields: fields?,
                    span: i.span,
                })
            })
            .collect();
        out.into_iter().collect()
    }

    fn state_var(&mut self, item: cst::StateItem) -> Option<StateVar> {
        let ty = self.lower(None).ty(item.ty);
        let init = self.lower(None).expr(item.init);
        Some(StateVar {
            name: Ident {
                name: item.name.text,
                span: item.name.span,
            },
            ty: ty?,
            init: init?,
            span: item.span,
        })
    }

    fn block(&mut self, b: cst::Block) -> Option<Block> {
        let steps: Vec<Option<Step>> = b.steps.into_iter().map(|s| self.step(s)).collect();
        Some(Block {
            steps: steps.into_iter().collect::<Option<Vec<_>>>()?,
            span: b.span,
        })
    }

    fn step(&mut self, s: cst::Step) -> Option<Step> {
        let h = s.header;
        let at = s.span.lo;
        let id = h.id.as_ref().and_then(|n| StepId::parse(&n.text));
        let id_ok = h.id.is_none() || id.is_some();
        let name = match &h.id {
            Some(n) => n.text.clone(),
            None => format!("the {} at line {}", h.kind.as_str(), h.span.line),
        };
        self.header_form(&h, id.as_ref());
        self.layout.anchor(at, Anchor::Step(at));
        self.layout.header_at(
            at,
            layout::Header {
                span: h.span,
                id: h.id.as_ref().map(|n| n.span),
            },
        );
        let node = match s.body {
            StepBody::Seq(block) => {
                self.layout
                    .anchor(closer_at(self.text, block.span), Anchor::End(at, None));
                self.block(block).map(|block| Node::Seq { block })
            }
            StepBody::Fields(fields) => {
                let holder = Holder {
                    name,
                    kind: h.kind,
                    step: id.clone(),
                    span: h.span,
                    at: Some(at),
                };
                self.statement(holder, fields)
            }
        };
        if !id_ok {
            return None;
        }
        Some(Step {
            id,
            desc: h.desc,
            span: s.span,
            node: node?,
        })
    }

    /// A warning for a header not written as the language writes it (`LOOP`
    /// without its `:`), with the fix that writes it so. A header without an
    /// ID outside AUTO_ID gets none: its `missing_step_id` error rewrites it.
    fn header_form(&mut self, h: &cst::Header, id: Option<&StepId>) {
        let form = h.form;
        if form == HeaderForm::Written || (id.is_none() && !self.auto_id) {
            return;
        }
        let written = self
            .text
            .get(h.span.lo as usize..h.span.hi as usize)
            .unwrap_or("")
            .to_owned();
        let fixed = layout::header_text(h.kind.as_str(), id.map(StepId::as_str), h.desc.as_deref());
        let what = match form {
            HeaderForm::NoColon if id.is_some() => "lacks the `:` after its ID",
            HeaderForm::NoColon => "lacks its `:`",
            HeaderForm::ColonBeforeDesc => "has a `:` before its description",
            _ => "has a `:` after its kind",
        };
        self.diags.push(
            Diagnostic::warning(
                Code::HeaderForm,
                format!("the step header `{written}` {what}: it is written `{fixed}`"),
            )
            .at(h.span)
            .in_step(id)
            .with_hint(format!("write {fixed}"))
            .with_fix(Fix::replace(h.span, fixed)),
        );
    }

    fn statement(&mut self, holder: Holder, fields: Vec<Field>) -> Option<Node> {
        let step = holder.step.clone();
        match holder.kind {
            Kw::Assign => {
                let [target, expr] = self.fields::<2>(holder, fields);
                let target = target.and_then(|f| self.place(step.clone(), f));
                let expr = expr.and_then(|f| self.expr(step, f));
                Some(Node::Assign {
                    target: target?,
                    expr: expr?,
                })
            }
            Kw::If => {
                let [cond, then_block, else_block] = self.fields::<3>(holder, fields);
                let cond = cond.and_then(|f| self.expr(step, f));
                let then_block = then_block.and_then(|f| self.block_field(f));
                // An IF without ELSE has an empty one, which no text wrote.
                let else_block = match else_block {
                    Some(f) => self.block_field(f),
                    None => Some(Block {
                        steps: Vec::new(),
                        span: Span::default(),
                    }),
                };
                Some(Node::If {
                    cond: cond?,
                    then_block: then_block?,
                    else_block: else_block?,
                })
            }
            Kw::Loop => {
                let [iter, body] = self.fields::<2>(holder, fields);
                let iter = iter.and_then(|f| self.iter(step, f));
                let body = body.and_then(|f| self.block_field(f));
                Some(Node::Loop {
                    iter: iter?,
                    body: body?,
                })
            }
            Kw::Break | Kw::Continue => {
                let kind = holder.kind;
                let [] = self.fields::<0>(holder, fields);
                Some(if kind == Kw::Break {
                    Node::Break
                } else {
                    Node::Continue
                })
            }
            _ => {
                let [expr] = self.fields::<1>(holder, fields);
                let expr = expr.and_then(|f| self.expr(step, f));
                Some(Node::Return { expr: expr? })
            }
        }
    }

    fn expr(&mut self, step: Option<StepId>, f: Field) -> Option<Expr> {
        match f.value {
            Value::SExpr(s) => self.lower(step).expr(s),
            _ => None,
        }
    }

    fn place(&mut self, step: Option<StepId>, f: Field) -> Option<Place> {
        match f.value {
            Value::SExpr(s) => self.lower(step).place(s),
            _ => None,
        }
    }

    fn iter(&mut self, step: Option<StepId>, f: Field) -> Option<Iter> {
        match f.value {
            Value::SExpr(s) => self.lower(step).iter(s),
            _ => None,
        }
    }

    fn block_field(&mut self, f: Field) -> Option<Block> {
        match f.value {
            Value::Block(b) => self.block(b),
            _ => None,
        }
    }

    /// Records the anchors of a field (and of its block's END).
    fn field_anchors(&mut self, holder: &Holder, f: &Field) {
        let anchor = match holder.at {
            Some(at) => Anchor::Field(at, f.kw),
            None => Anchor::SectionField(holder.kind, f.kw),
        };
        self.layout.anchor(f.kw_span.lo, anchor);
        if let (Some(at), Value::Block(b)) = (holder.at, &f.value) {
            self.layout
                .anchor(closer_at(self.text, b.span), Anchor::End(at, Some(f.kw)));
        }
    }

    /// Sorts `fields` into the slots of `holder`'s fixed field order, reporting
    /// fields that do not belong, repeat, come out of order or are missing.
    fn fields<const N: usize>(&mut self, holder: Holder, fields: Vec<Field>) -> [Option<Field>; N] {
        let order = Kw::field_order(holder.kind);
        let mut slots: [Option<Field>; N] = std::array::from_fn(|_| None);
        let mut seen_rank: Option<usize> = None;
        let mut complete = true;
        for f in fields {
            self.field_anchors(&holder, &f);
            let Some(rank) = order.iter().position(|&k| k == f.kw).filter(|&r| r < N) else {
                self.foreign_field(&holder, &f, order);
                complete = false;
                continue;
            };
            if let Some(first) = &slots[rank] {
                self.diags.push(
                    Diagnostic::error(
                        Code::UnexpectedToken,
                        format!("{} has {} twice", holder.name, f.kw.as_str()),
                    )
                    .at(f.kw_span)
                    .in_step(holder.step.as_ref())
                    .with_label(first.kw_span, "first here")
                    .with_hint("keep one of the two"),
                );
                complete = false;
                continue;
            }
            if let Some(seen) = seen_rank.filter(|&s| s > rank) {
                self.diags.push(
                    Diagnostic::warning(
                        Code::FieldOrder,
                        format!(
                            "{}: comes before {}: in {} (the fields of {} go {}, in this order)",
                            f.kw.as_str(),
                            order[seen].as_str(),
                            holder.name,
                            holder.kind.as_str(),
                            list_words(order)
                        ),
                    )
                    .at(f.kw_span)
                    .in_step(holder.step.as_ref())
                    .with_hint("accepted; `isu fmt` writes the fields in order"),
                );
            }
            seen_rank = Some(seen_rank.map_or(rank, |s| s.max(rank)));
            slots[rank] = Some(f);
        }
        if complete {
            for rank in 0..N {
                // ELSE may be left out: the IF then has an empty one.
                let optional = holder.kind == Kw::If && order[rank] == Kw::Else;
                if slots[rank].is_none() && !optional {
                    let prev = slots[..rank].iter().rev().flatten().next();
                    self.missing_field(&holder, order, rank, prev);
                }
            }
        }
        slots
    }

    fn missing_field(&mut self, holder: &Holder, order: &[Kw], rank: usize, prev: Option<&Field>) {
        let want = order[rank];
        let after = match prev {
            None => "the header".to_owned(),
            Some(p) if p.kw.is_block_field() => format!("the {} block", p.kw.as_str()),
            Some(p) => format!("the {}", p.kw.as_str()),
        };
        let of = &holder.name;
        let why = needs(holder.kind, want);
        let mut d = Diagnostic::error(
            Code::MissingField,
            format!("expected {}: after {after} of {of} ({why})", want.as_str()),
        )
        .at(holder.span)
        .in_step(holder.step.as_ref());
        if let Some(p) = prev {
            d = d.with_label(p.span, format!("{}: goes after this", want.as_str()));
        }
        d.hint = missing_hint(holder.kind, want).map(str::to_owned);
        self.diags.push(d);
    }

    fn foreign_field(&mut self, holder: &Holder, f: &Field, order: &[Kw]) {
        let belongs = f.kw.field_holder();
        let fields = if order.is_empty() {
            format!("{} has no fields", holder.kind.as_str())
        } else {
            format!(
                "the fields of {} are {}",
                holder.kind.as_str(),
                list_words(order)
            )
        };
        self.diags.push(
            Diagnostic::error(
                Code::UnexpectedToken,
                format!(
                    "{}: does not belong in {} ({fields}; {} is a field of {belongs})",
                    f.kw.as_str(),
                    holder.name,
                    f.kw.as_str()
                ),
            )
            .at(f.kw_span)
            .in_step(holder.step.as_ref()),
        );
    }
}

/// The offset of the END (or `}`) that closes the block of `span`.
fn closer_at(text: &str, span: Span) -> u32 {
    let len = if text.as_bytes().get(span.hi.saturating_sub(1) as usize) == Some(&b'}') {
        1
    } else {
        3
    };
    span.hi.saturating_sub(len)
}

/// The span `lo..hi` inside `within` (which gives the line of its start).
fn layout_span(text: &str, lo: u32, hi: u32, within: Span) -> Span {
    let before = text.get(..lo as usize).unwrap_or("");
    let line = within.line + before[within.lo.min(lo) as usize..].matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let col = before[line_start..].chars().count() as u32 + 1;
    Span { lo, hi, line, col }
}

fn fields_of(body: SectionBody) -> Vec<Field> {
    match body {
        SectionBody::Fields(f) => f,
        _ => Vec::new(),
    }
}
