//! The server's loop: the handshake, the open documents, and one handler
//! per request, each a call of the service with positions converted.

use super::convert::{self, Text};
use super::position::{Encoding, LineIndex};
use super::transport::{self, Out};
use super::{MAX_DOCUMENT_BYTES, RUN_EXAMPLES};
use crate::diag::{Code, Diagnostic};
use crate::functions::Functions;
use crate::service::{self, editor};
use crate::source::Source;
use crate::syntax;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};

/// How the session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// `shutdown`, then `exit`: the exit code is 0.
    Clean,
    /// `exit` without `shutdown`, or the input ended: the exit code is 1.
    Unclean,
}

/// What the loop waits for.
enum Event {
    Message(Message),
    /// A run of a document's examples finished.
    Examples(Finished),
    /// The input ended.
    Closed,
}

/// The result of running a document's examples on a worker thread.
struct Finished {
    request: RequestId,
    uri: String,
    /// The document version the run was of.
    version: i32,
    result: Result<service::Tested, Vec<Diagnostic>>,
}

/// One open document.
#[derive(Debug)]
struct Doc {
    uri: lsp::Uri,
    text: String,
    index: LineIndex,
    version: i32,
    /// Whether it is an Isu document (its language is `isu`, or its name
    /// ends with `.isu`): others are kept but get no answers.
    isu: bool,
    /// The TestFails of the last run of its examples, while the text is
    /// the one they ran on.
    tests: Vec<Diagnostic>,
}

impl Doc {
    fn new(uri: lsp::Uri, language: &str, text: String, version: i32) -> Doc {
        let isu = language == "isu" || uri.path().as_str().ends_with(".isu");
        Doc {
            index: LineIndex::new(&text),
            uri,
            text,
            version,
            isu,
            tests: Vec::new(),
        }
    }

    fn too_large(&self) -> bool {
        self.text.len() > MAX_DOCUMENT_BYTES
    }

    /// Whether requests about it get answers: an Isu document within the limit.
    fn served(&self) -> bool {
        self.isu && !self.too_large()
    }

    fn source(&self) -> Source {
        Source::new(self.uri.as_str(), self.text.as_str())
    }
}

struct Server {
    out: Out,
    events: Sender<Event>,
    packs: Functions,
    enc: Encoding,
    docs: BTreeMap<String, Doc>,
    /// Documents whose diagnostics are to be published again.
    dirty: BTreeSet<String>,
    shutdown: bool,
}

/// Serves the protocol on `input` and `output`, with the functions of
/// `packs` callable, until `exit` or the end of the input.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    packs: Functions,
) -> io::Result<Exit> {
    let out = Out::new(output);
    let (events, rx) = channel();
    let reader_out = out.clone();
    let reader_events = events.clone();
    std::thread::spawn(move || {
        let mut input = input;
        let sent = |m| reader_events.send(Event::Message(m)).is_ok();
        if let Err(e) = transport::read_messages(&mut input, &reader_out, sent) {
            tracing::warn!("reading the client's messages failed: {e}");
        }
        let _ = reader_events.send(Event::Closed);
    });
    let Some(enc) = handshake(&out, &rx)? else {
        return Ok(Exit::Unclean);
    };
    let mut server = Server {
        out,
        events,
        packs,
        enc,
        docs: BTreeMap::new(),
        dirty: BTreeSet::new(),
        shutdown: false,
    };
    server.run(&rx)
}

/// Answers every request before `initialize` with `-32002`, then
/// `initialize` with the capabilities; the encoding agreed on, or `None`
/// when the client left first.
fn handshake(out: &Out, rx: &Receiver<Event>) -> io::Result<Option<Encoding>> {
    loop {
        let msg = match rx.recv() {
            Ok(Event::Message(m)) => m,
            Ok(Event::Closed) | Err(_) => return Ok(None),
            Ok(Event::Examples(_)) => continue,
        };
        match msg {
            Message::Request(req) if req.method == "initialize" => {
                let params: lsp::InitializeParams = match serde_json::from_value(req.params) {
                    Ok(p) => p,
                    Err(e) => {
                        out.send(&error(req.id, ErrorCode::InvalidParams, &e.to_string()))?;
                        continue;
                    }
                };
                let offered = params
                    .capabilities
                    .general
                    .as_ref()
                    .and_then(|g| g.position_encodings.as_deref());
                let enc = Encoding::negotiate(offered);
                let result = lsp::InitializeResult {
                    capabilities: capabilities(enc),
                    server_info: Some(lsp::ServerInfo {
                        name: "isu".to_owned(),
                        version: Some(env!("CARGO_PKG_VERSION").to_owned()),
                    }),
                };
                out.send(&Message::Response(Response::new_ok(req.id, result)))?;
                return Ok(Some(enc));
            }
            Message::Request(req) => out.send(&error(
                req.id,
                ErrorCode::ServerNotInitialized,
                "the server is not initialized: send initialize first",
            ))?,
            Message::Notification(n) if n.method == "exit" => return Ok(None),
            _ => {}
        }
    }
}

fn capabilities(enc: Encoding) -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(enc.kind()),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                ..lsp::TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec!["(".to_owned()]),
            ..lsp::CompletionOptions::default()
        }),
        definition_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..lsp::CodeActionOptions::default()
            },
        )),
        code_lens_provider: Some(lsp::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(lsp::ExecuteCommandOptions {
            commands: vec![RUN_EXAMPLES.to_owned()],
            ..lsp::ExecuteCommandOptions::default()
        }),
        ..lsp::ServerCapabilities::default()
    }
}

fn error(id: RequestId, code: ErrorCode, message: &str) -> Message {
    Message::Response(Response::new_err(id, code as i32, message.to_owned()))
}

/// What a request handler gives: a result, or an error to answer with.
type Answer = Result<Value, (ErrorCode, String)>;

fn params<P: DeserializeOwned>(req: &Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(req.params.clone()).map_err(|e| {
        (
            ErrorCode::InvalidParams,
            format!(
                "the params of {} are not as the protocol says: {e}",
                req.method
            ),
        )
    })
}

fn to_value(v: impl serde::Serialize) -> Answer {
    serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

impl Server {
    fn run(&mut self, rx: &Receiver<Event>) -> io::Result<Exit> {
        loop {
            let Ok(first) = rx.recv() else {
                return Ok(Exit::Unclean);
            };
            // Everything that arrived together is handled before the
            // diagnostics are published: a burst of changes is checked once.
            let mut next = Some(first);
            while let Some(event) = next.take() {
                if let Some(exit) = self.handle(event)? {
                    return Ok(exit);
                }
                next = rx.try_recv().ok();
            }
            self.publish()?;
        }
    }

    /// Handles one event; `Some` when the session ends.
    fn handle(&mut self, event: Event) -> io::Result<Option<Exit>> {
        match event {
            Event::Closed => Ok(Some(Exit::Unclean)),
            Event::Examples(done) => {
                self.examples_done(done)?;
                Ok(None)
            }
            Event::Message(Message::Request(req)) => {
                self.request(req)?;
                Ok(None)
            }
            Event::Message(Message::Notification(n)) => {
                if n.method == "exit" {
                    return Ok(Some(if self.shutdown {
                        Exit::Clean
                    } else {
                        Exit::Unclean
                    }));
                }
                self.notification(n);
                Ok(None)
            }
            // Responses to requests the server never sends.
            Event::Message(Message::Response(_)) => Ok(None),
        }
    }

    fn send(&self, msg: &Message) -> io::Result<()> {
        self.out.send(msg)
    }

    fn request(&mut self, req: Request) -> io::Result<()> {
        let id = req.id.clone();
        if self.shutdown {
            return self.send(&error(
                id,
                ErrorCode::InvalidRequest,
                "the server is shutting down: only exit is accepted",
            ));
        }
        if req.method == "shutdown" {
            self.shutdown = true;
            return self.send(&Message::Response(Response::new_ok(id, Value::Null)));
        }
        if req.method == "workspace/executeCommand" {
            return self.execute(req);
        }
        let method = req.method.clone();
        let answer = catch_unwind(AssertUnwindSafe(|| self.answer(&req))).unwrap_or_else(|_| {
            Err((
                ErrorCode::InternalError,
                format!("{method} failed inside the server (a bug: please report it)"),
            ))
        });
        let response = match answer {
            Ok(v) => Response::new_ok(id, v),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(&Message::Response(response))
    }

    /// The document a request is about, when it is served.
    fn doc(&self, uri: &lsp::Uri) -> Option<&Doc> {
        self.docs.get(uri.as_str()).filter(|d| d.served())
    }

    fn text<'a>(&self, doc: &'a Doc) -> Text<'a> {
        Text {
            text: &doc.text,
            index: &doc.index,
            enc: self.enc,
        }
    }

    /// The served document a position is in, its text, and the position
    /// as a byte offset.
    fn at(&self, pos: &lsp::TextDocumentPositionParams) -> Option<(&Doc, Text<'_>, u32)> {
        let doc = self.doc(&pos.text_document.uri)?;
        let t = self.text(doc);
        Some((doc, t, t.offset(pos.position)))
    }

    fn answer(&self, req: &Request) -> Answer {
        match req.method.as_str() {
            "textDocument/hover" => {
                let p: lsp::HoverParams = params(req)?;
                let Some((doc, t, at)) = self.at(&p.text_document_position_params) else {
                    return Ok(Value::Null);
                };
                to_value(editor::hover(&doc.text, at, &self.packs).map(|h| convert::hover(t, &h)))
            }
            "textDocument/completion" => {
                let p: lsp::CompletionParams = params(req)?;
                let Some((doc, t, at)) = self.at(&p.text_document_position) else {
                    return Ok(Value::Null);
                };
                let items: Vec<lsp::CompletionItem> = editor::complete(&doc.text, at, &self.packs)
                    .iter()
                    .map(|c| convert::completion(t, c))
                    .collect();
                to_value(items)
            }
            "textDocument/definition" => {
                let p: lsp::GotoDefinitionParams = params(req)?;
                let Some((doc, t, at)) = self.at(&p.text_document_position_params) else {
                    return Ok(Value::Null);
                };
                to_value(editor::definition(&doc.text, at).map(|s| lsp::Location {
                    uri: doc.uri.clone(),
                    range: t.range(s.lo, s.hi),
                }))
            }
            "textDocument/documentSymbol" => {
                let p: lsp::DocumentSymbolParams = params(req)?;
                let Some(doc) = self.doc(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let t = self.text(doc);
                let symbols: Vec<lsp::DocumentSymbol> = editor::symbols(&doc.text)
                    .iter()
                    .map(|s| convert::symbol(t, s))
                    .collect();
                to_value(symbols)
            }
            "textDocument/formatting" => {
                let p: lsp::DocumentFormattingParams = params(req)?;
                let Some(doc) = self.doc(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let src = doc.source();
                let formatted = service::format(&src);
                // A text that does not parse gets no edit (its errors are
                // already among the diagnostics).
                let edits = formatted.text.map(|text| {
                    if text == doc.text {
                        Vec::new()
                    } else {
                        vec![self.text(doc).replace_all(text)]
                    }
                });
                to_value(edits)
            }
            "textDocument/codeAction" => {
                let p: lsp::CodeActionParams = params(req)?;
                let Some(doc) = self.doc(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                to_value(self.code_actions(doc, &p))
            }
            // Not advertised (diagnostics are pushed), but answered for a
            // client that pulls them.
            "textDocument/diagnostic" => {
                let p: lsp::DocumentDiagnosticParams = params(req)?;
                let items = match self
                    .docs
                    .get(p.text_document.uri.as_str())
                    .filter(|d| d.isu)
                {
                    Some(doc) => self.diagnostics_of(doc),
                    None => Vec::new(),
                };
                to_value(lsp::DocumentDiagnosticReport::Full(
                    lsp::RelatedFullDocumentDiagnosticReport {
                        related_documents: None,
                        full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                            result_id: None,
                            items,
                        },
                    },
                ))
            }
            "textDocument/codeLens" => {
                let p: lsp::CodeLensParams = params(req)?;
                let Some(doc) = self.doc(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let lenses: Vec<lsp::CodeLens> = editor::examples_at(&doc.text)
                    .map(|((lo, _), n)| lsp::CodeLens {
                        range: self.text(doc).range(lo, lo),
                        command: Some(run_examples(doc, n)),
                        data: None,
                    })
                    .into_iter()
                    .collect();
                to_value(lenses)
            }
            method => Err((
                ErrorCode::MethodNotFound,
                format!("the server has no method {method}"),
            )),
        }
    }

    /// Each fix of a diagnostic at the range as a quick fix (a certain one
    /// preferred), and every certain fix at once as "fix all", when it
    /// changes the text; as `context.only` asks.
    fn code_actions(&self, doc: &Doc, p: &lsp::CodeActionParams) -> Vec<lsp::CodeActionOrCommand> {
        let t = self.text(doc);
        let wanted = |kind: &lsp::CodeActionKind| {
            p.context.only.as_ref().is_none_or(|only| {
                only.iter().any(|o| {
                    kind.as_str() == o.as_str()
                        || kind.as_str().starts_with(&format!("{}.", o.as_str()))
                })
            })
        };
        let (lo, hi) = (t.offset(p.range.start), t.offset(p.range.end));
        let src = doc.source();
        let front = service::check(&src, &self.packs);
        let outline = syntax::outline_of(&doc.text);
        let mut actions = Vec::new();
        let edit = |edits: Vec<lsp::TextEdit>| lsp::WorkspaceEdit {
            changes: Some([(doc.uri.clone(), edits)].into_iter().collect()),
            ..lsp::WorkspaceEdit::default()
        };
        if wanted(&lsp::CodeActionKind::QUICKFIX) {
            for d in &front.diags {
                let Some(fix) = &d.fix else { continue };
                let placed = editor::place(&doc.text, d, &outline);
                if placed.span.0 > hi || lo > placed.span.1 {
                    continue;
                }
                let what = d.hint.as_deref().unwrap_or(&d.message);
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: format!("Fix {}: {what}", d.code),
                    kind: Some(lsp::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![convert::diagnostic(t, &doc.uri, d, "isu", &outline)]),
                    edit: Some(edit(fix.edits.iter().map(|e| t.edit(e)).collect())),
                    is_preferred: Some(fix.is_certain()),
                    ..lsp::CodeAction::default()
                }));
            }
        }
        if wanted(&lsp::CodeActionKind::SOURCE_FIX_ALL) {
            let fixed = service::fix(&src, &self.packs);
            if fixed.text != doc.text {
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: format!(
                        "Fix all: apply every certain fix ({} in {} rounds, as isu fix)",
                        fixed.applied.len(),
                        fixed.rounds
                    ),
                    kind: Some(lsp::CodeActionKind::SOURCE_FIX_ALL),
                    edit: Some(edit(vec![t.replace_all(fixed.text)])),
                    ..lsp::CodeAction::default()
                }));
            }
        }
        actions
    }

    /// `workspace/executeCommand`: runs a document's IO examples on a worker
    /// thread; the answer and the diagnostics come when it finishes.
    fn execute(&mut self, req: Request) -> io::Result<()> {
        let p: lsp::ExecuteCommandParams = match params(&req) {
            Ok(p) => p,
            Err((code, m)) => return self.send(&error(req.id, code, &m)),
        };
        if p.command != RUN_EXAMPLES {
            return self.send(&error(
                req.id,
                ErrorCode::InvalidParams,
                &format!(
                    "the server has no command {}; it has {RUN_EXAMPLES}",
                    p.command
                ),
            ));
        }
        let uri = p
            .arguments
            .first()
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(doc) = self.docs.get(uri).filter(|d| d.served()) else {
            return self.send(&error(
                req.id,
                ErrorCode::InvalidParams,
                &format!("{RUN_EXAMPLES} takes the URI of an open Isu document; `{uri}` is none"),
            ));
        };
        let src = doc.source();
        let packs = self.packs.clone();
        let events = self.events.clone();
        let (request, uri, version) = (req.id, uri.to_owned(), doc.version);
        std::thread::spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| service::examples(&src, &packs)))
                .unwrap_or_else(|_| {
                    Err(vec![Diagnostic::error(
                        isu_lang::RuntimeCode::InternalError,
                        "running the examples failed inside the server (a bug: please report it)",
                    )])
                });
            let _ = events.send(Event::Examples(Finished {
                request,
                uri,
                version,
                result,
            }));
        });
        Ok(())
    }

    fn examples_done(&mut self, done: Finished) -> io::Result<()> {
        let name = done.uri.rsplit('/').next().unwrap_or_default().to_owned();
        let (result, summary) = match &done.result {
            Ok(t) => {
                let summary = match t.examples {
                    0 => format!("{name}: no IO examples to run"),
                    n => format!(
                        "{name}: {n} examples, {} passed, {} failed",
                        t.passed(),
                        t.failed()
                    ),
                };
                let result = json!({
                    "outcome": t.outcome(),
                    "examples": t.examples,
                    "passed": t.passed(),
                    "failed": t.failed(),
                    "diagnostics": t.fails.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
                });
                (result, summary)
            }
            Err(diags) => (
                json!({
                    "outcome": "invalid",
                    "diagnostics": diags.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
                }),
                format!("{name}: the examples cannot run until the program is valid"),
            ),
        };
        let kind = match done.result.is_ok() {
            true => lsp::MessageType::INFO,
            false => lsp::MessageType::WARNING,
        };
        // The diagnostics go out before the answer, so that a client has
        // them when it reads the answer.
        if let Some(doc) = self.docs.get_mut(&done.uri) {
            if doc.version == done.version {
                doc.tests = done.result.map(|t| t.fails).unwrap_or_default();
                self.dirty.insert(done.uri.clone());
                self.publish()?;
            }
        }
        self.send(&Message::Response(Response::new_ok(done.request, result)))?;
        self.send(&Message::Notification(Notification::new(
            "window/showMessage".to_owned(),
            lsp::ShowMessageParams {
                typ: kind,
                message: summary,
            },
        )))
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(n.params)
                else {
                    return;
                };
                let d = p.text_document;
                let key = d.uri.as_str().to_owned();
                self.docs.insert(
                    key.clone(),
                    Doc::new(d.uri, &d.language_id, d.text, d.version),
                );
                self.dirty.insert(key);
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(n.params)
                else {
                    return;
                };
                let enc = self.enc;
                let key = p.text_document.uri.as_str().to_owned();
                let Some(doc) = self.docs.get_mut(&key) else {
                    return;
                };
                for change in p.content_changes {
                    match change.range {
                        Some(r) => {
                            let lo = doc.index.offset(&doc.text, r.start, enc) as usize;
                            let hi = doc.index.offset(&doc.text, r.end, enc) as usize;
                            let (lo, hi) = (lo.min(hi), lo.max(hi));
                            doc.text.replace_range(lo..hi, &change.text);
                        }
                        None => doc.text = change.text,
                    }
                    doc.index = LineIndex::new(&doc.text);
                }
                doc.version = p.text_document.version;
                doc.tests.clear();
                self.dirty.insert(key);
            }
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(n.params)
                else {
                    return;
                };
                if let Some(doc) = self.docs.remove(p.text_document.uri.as_str()) {
                    self.dirty.remove(doc.uri.as_str());
                    if doc.isu {
                        let _ = self.send(&publish(doc.uri, Vec::new(), None));
                    }
                }
            }
            // initialized, didSave, $/cancelRequest, $/setTrace and any
            // other notification need nothing.
            _ => {}
        }
    }

    /// Publishes the diagnostics of every changed document.
    fn publish(&mut self) -> io::Result<()> {
        for key in std::mem::take(&mut self.dirty) {
            let Some(doc) = self.docs.get(&key).filter(|d| d.isu) else {
                continue;
            };
            let diags = self.diagnostics_of(doc);
            self.send(&publish(doc.uri.clone(), diags, Some(doc.version)))?;
        }
        Ok(())
    }

    /// A document's diagnostics: the check's, and the last run's TestFails
    /// while the text is the one they ran on; for a document over the
    /// limit, one diagnostic saying so.
    fn diagnostics_of(&self, doc: &Doc) -> Vec<lsp::Diagnostic> {
        let t = self.text(doc);
        if doc.too_large() {
            let d = Diagnostic::error(
                Code::DocumentTooLarge,
                format!(
                    "the document is {} bytes, over the language server's limit of {MAX_DOCUMENT_BYTES}; it is not checked",
                    doc.text.len()
                ),
            )
            .with_hint("run `isu check FILE` on it");
            return vec![convert::diagnostic(t, &doc.uri, &d, "isu", &[])];
        }
        let src = doc.source();
        let checked = catch_unwind(AssertUnwindSafe(|| service::check(&src, &self.packs)));
        let front = match checked {
            Ok(front) => front.diags,
            Err(_) => vec![Diagnostic::error(
                isu_lang::RuntimeCode::InternalError,
                "checking the document failed inside the server (a bug: please report it)",
            )],
        };
        let outline = syntax::outline_of(&doc.text);
        let mut all = convert::diagnostics(t, &doc.uri, &front, "isu", &outline);
        all.extend(convert::diagnostics(
            t, &doc.uri, &doc.tests, "isu test", &outline,
        ));
        all
    }
}

/// The command that runs a document's `n` IO examples.
fn run_examples(doc: &Doc, n: usize) -> lsp::Command {
    let title = match n {
        1 => "▶ Run the IO example".to_owned(),
        n => format!("▶ Run the {n} IO examples"),
    };
    lsp::Command {
        title,
        command: RUN_EXAMPLES.to_owned(),
        arguments: Some(vec![json!(doc.uri.as_str())]),
    }
}

fn publish(uri: lsp::Uri, diagnostics: Vec<lsp::Diagnostic>, version: Option<i32>) -> Message {
    Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".to_owned(),
        lsp::PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    ))
}
