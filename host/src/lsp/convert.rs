//! The service's values as protocol values: diagnostics, edits, symbols,
//! completions, hovers. Byte offsets become positions here, in the
//! encoding agreed on; nothing else changes.

use super::position::{Encoding, LineIndex};
use crate::diag::{self, Diagnostic, Edit, Severity};
use crate::service::editor::{self, Completion, CompletionKind, Symbol};
use crate::syntax::{Kw, OutlineStep};
use lsp_types as lsp;

/// A document's text with its line index and the encoding positions use.
#[derive(Debug, Clone, Copy)]
pub struct Text<'a> {
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub enc: Encoding,
}

impl Text<'_> {
    pub fn range(&self, lo: u32, hi: u32) -> lsp::Range {
        self.index.range(self.text, lo, hi, self.enc)
    }

    pub fn offset(&self, pos: lsp::Position) -> u32 {
        self.index.offset(self.text, pos, self.enc)
    }

    /// The whole text's range.
    pub fn whole(&self) -> lsp::Range {
        self.index.whole(self.text, self.enc)
    }

    /// An edit replacing the whole text with `new`.
    pub fn replace_all(&self, new: String) -> lsp::TextEdit {
        lsp::TextEdit {
            range: self.whole(),
            new_text: new,
        }
    }

    pub fn edit(&self, e: &Edit) -> lsp::TextEdit {
        lsp::TextEdit {
            range: self.range(e.span.start, e.span.end),
            new_text: e.replacement.clone(),
        }
    }
}

/// The diagnostics of a document, as the protocol shows them: at most
/// [`diag::MAX_PER_CODE`] of one code, each where [`editor::place`] puts
/// it, with its code, its step and hint in the message, its labels as
/// related information, and its JSON object as `data`.
pub fn diagnostics(
    t: Text<'_>,
    uri: &lsp::Uri,
    diags: &[Diagnostic],
    source: &str,
    outline: &[OutlineStep],
) -> Vec<lsp::Diagnostic> {
    diag::cap(diags)
        .iter()
        .map(|d| diagnostic(t, uri, d, source, outline))
        .collect()
}

pub fn diagnostic(
    t: Text<'_>,
    uri: &lsp::Uri,
    d: &Diagnostic,
    source: &str,
    outline: &[OutlineStep],
) -> lsp::Diagnostic {
    let placed = editor::place(t.text, d, outline);
    let mut message = d.message.clone();
    if let Some(step) = &d.step {
        match &d.source_step {
            Some(w) => message.push_str(&format!("\nstep: {step} (written {w})")),
            None => message.push_str(&format!("\nstep: {step}")),
        }
    }
    if let Some(h) = &d.hint {
        message.push_str(&format!("\nhint: {h}"));
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = placed
        .related
        .iter()
        .map(|((lo, hi), what)| lsp::DiagnosticRelatedInformation {
            location: lsp::Location {
                uri: uri.clone(),
                range: t.range(*lo, *hi),
            },
            message: what.clone(),
        })
        .collect();
    let unnecessary = d.code == crate::diag::Code::UnreachableStep;
    lsp::Diagnostic {
        range: t.range(placed.span.0, placed.span.1),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.as_str().to_owned())),
        code_description: None,
        source: Some(source.to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: unnecessary.then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        data: Some(d.to_json()),
    }
}

/// The protocol's symbol kind for a step of kind `k`: only the icon an
/// editor shows.
fn symbol_kind(k: Option<Kw>) -> lsp::SymbolKind {
    match k {
        Some(Kw::Seq) => lsp::SymbolKind::NAMESPACE,
        Some(Kw::If) => lsp::SymbolKind::BOOLEAN,
        Some(Kw::Loop) => lsp::SymbolKind::ARRAY,
        Some(Kw::Return) => lsp::SymbolKind::EVENT,
        Some(Kw::Assign) => lsp::SymbolKind::VARIABLE,
        _ => lsp::SymbolKind::OBJECT,
    }
}

#[allow(deprecated)] // `deprecated` is a field every DocumentSymbol must name
pub fn symbol(t: Text<'_>, s: &Symbol) -> lsp::DocumentSymbol {
    let detail = match (s.kind, &s.desc) {
        (Some(k), Some(d)) => Some(format!("{} {}", k.as_str(), json_string(d))),
        (Some(k), None) => Some(k.as_str().to_owned()),
        (None, Some(d)) => Some(json_string(d)),
        (None, None) => None,
    };
    let children: Vec<lsp::DocumentSymbol> = s.children.iter().map(|c| symbol(t, c)).collect();
    lsp::DocumentSymbol {
        name: s.id.to_string(),
        detail,
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: t.range(s.span.0, s.span.1),
        selection_range: t.range(s.header.0, s.header.1),
        children: (!children.is_empty()).then_some(children),
    }
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

pub fn completion(t: Text<'_>, c: &Completion) -> lsp::CompletionItem {
    let kind = match c.kind {
        CompletionKind::Section | CompletionKind::Statement | CompletionKind::Field => {
            lsp::CompletionItemKind::KEYWORD
        }
        CompletionKind::Operator => lsp::CompletionItemKind::OPERATOR,
        CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
        CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
        CompletionKind::Type => lsp::CompletionItemKind::TYPE_PARAMETER,
        CompletionKind::Struct => lsp::CompletionItemKind::STRUCT,
    };
    lsp::CompletionItem {
        label: c.label.clone(),
        kind: Some(kind),
        detail: c.detail.clone(),
        documentation: c.doc.as_ref().map(|d| {
            lsp::Documentation::MarkupContent(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: d.clone(),
            })
        }),
        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
            range: t.range(c.replace.0, c.replace.1),
            new_text: c.insert.clone(),
        })),
        ..lsp::CompletionItem::default()
    }
}

pub fn hover(t: Text<'_>, h: &editor::Hover) -> lsp::Hover {
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: h.markdown.clone(),
        }),
        range: Some(t.range(h.span.lo, h.span.hi)),
    }
}
