//! The toolchain as tools for agents (`spec/mcp.md`): three tools, `tree`,
//! `inspect` and `invoke`, over the objects of a project root (programs and
//! their steps, the standard library, packs, backends), served over MCP on
//! stdio by [`server`].
//!
//! This module is the tools' logic, synchronous and independent of the
//! protocol: each tool takes its JSON arguments and gives a [`ToolResult`]
//! (structured content, its text view, and whether it is an error a model
//! can act on).

// A refusal ends the request: the diagnostic by value keeps the API plain.
#![allow(clippy::result_large_err)]

mod invoke;
pub mod objects;
pub mod ops;
pub mod schema;
pub mod server;
#[cfg(test)]
mod tests;

use crate::diag::{Code, Diagnostic};
use crate::plugins::Registry;
use crate::root::ProjectRoot;
use objects::Object;
use serde_json::{json, Map, Value};

/// The largest argument record a tool takes, as JSON text.
pub const MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// The most objects one `tree` answer lists.
pub const MAX_TREE_OBJECTS: usize = 2000;

/// The deepest `tree` request.
pub const MAX_TREE_DEPTH: u64 = 32;

/// What the tools work on: the project root and the loaded plugins.
#[derive(Debug)]
pub struct Context {
    pub root: ProjectRoot,
    pub registry: Registry,
}

/// One tool's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The structured content; it satisfies the tool's output schema.
    pub structured: Value,
    /// The same for people and models, as text.
    pub text: String,
    /// Whether the call failed in a way the caller can act on.
    pub is_error: bool,
}

impl ToolResult {
    /// A refusal of the request: `{ok: false, diagnostics: [d]}`.
    pub fn refused(d: Diagnostic) -> ToolResult {
        let text = format!("error[{}]: {}{}", d.code, d.message, hint(&d));
        ToolResult {
            structured: json!({"ok": false, "diagnostics": [d.to_json()]}),
            text,
            is_error: true,
        }
    }
}

fn severity(d: &Diagnostic) -> &'static str {
    if d.is_error() {
        "error"
    } else {
        "warning"
    }
}

fn hint(d: &Diagnostic) -> String {
    d.hint
        .as_ref()
        .map_or(String::new(), |h| format!("\n  hint: {h}"))
}

/// Checks the size of an argument record before anything else looks at it.
pub fn check_size(args: &Map<String, Value>) -> Result<(), Diagnostic> {
    let size = serde_json::to_string(args).map_or(usize::MAX, |s| s.len());
    if size > MAX_ARGUMENT_BYTES {
        return Err(Diagnostic::error(
            Code::ArgumentTooLarge,
            format!(
                "the arguments are {size} bytes of JSON; a tool takes at most {MAX_ARGUMENT_BYTES}"
            ),
        )
        .with_hint("send programs and patches by path and step, not inline data"));
    }
    Ok(())
}

fn string_arg<'a>(
    args: &'a Map<String, Value>,
    name: &str,
    required: bool,
) -> Result<Option<&'a str>, Diagnostic> {
    match args.get(name) {
        Some(Value::String(s)) => Ok(Some(s)),
        None if !required => Ok(None),
        None => Err(Diagnostic::error(
            Code::InvalidArguments,
            format!("the argument `{name}` is missing"),
        )),
        Some(v) => Err(Diagnostic::error(
            Code::InvalidArguments,
            format!("the argument `{name}` must be a string, not {v:.80}"),
        )),
    }
}

fn no_other_args(args: &Map<String, Value>, known: &[&str]) -> Result<(), Diagnostic> {
    match args.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(Diagnostic::error(
            Code::InvalidArguments,
            format!("no argument `{k}`; the arguments are {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

/// `tree(path, depth)`: the objects within `depth` of `path` (depth 0 is the
/// object itself), every one of them, or an error when there are more than
/// [`MAX_TREE_OBJECTS`].
pub fn tree(ctx: &Context, args: &Map<String, Value>) -> ToolResult {
    let run = || -> Result<ToolResult, Diagnostic> {
        no_other_args(args, &["path", "depth"])?;
        let path = string_arg(args, "path", false)?.unwrap_or("");
        let depth = match args.get("depth") {
            None => 1,
            Some(v) => v.as_u64().filter(|d| *d <= MAX_TREE_DEPTH).ok_or_else(|| {
                Diagnostic::error(
                    Code::InvalidArguments,
                    format!("the depth must be an integer from 0 to {MAX_TREE_DEPTH}, not {v:.40}"),
                )
            })?,
        };
        let object = objects::resolve(ctx, path)?;
        let path = path.trim_matches('/').to_owned();
        let name = path.rsplit('/').next().unwrap_or("").to_owned();
        let mut count = 0;
        let mut text = String::new();
        let node = node(ctx, &name, &path, &object, depth, 0, &mut count, &mut text)?;
        Ok(ToolResult {
            structured: json!({"ok": true, "diagnostics": [], "objects": count, "tree": node}),
            text,
            is_error: false,
        })
    };
    run().unwrap_or_else(ToolResult::refused)
}

/// One node of the tree: `children` lists every child when the node is
/// within depth, and is `null` when it lies at the depth's edge with
/// children not listed.
#[allow(clippy::too_many_arguments)]
fn node(
    ctx: &Context,
    name: &str,
    path: &str,
    object: &Object,
    depth: u64,
    level: usize,
    count: &mut usize,
    text: &mut String,
) -> Result<Value, Diagnostic> {
    *count += 1;
    if *count > MAX_TREE_OBJECTS {
        return Err(Diagnostic::error(
            Code::TreeTooLarge,
            format!("the tree has more than {MAX_TREE_OBJECTS} objects"),
        )
        .with_hint("ask for a smaller depth, or for the tree of a path further down"));
    }
    let shown = if name.is_empty() { "(root)" } else { name };
    text.push_str(&format!(
        "{}{shown}  [{}]",
        "  ".repeat(level),
        object.kind()
    ));
    let mut value = json!({"name": name, "path": path, "kind": object.kind()});
    if depth == 0 {
        let leaf = matches!(
            object,
            Object::StdFn(_) | Object::PackFn(_) | Object::Backend(_)
        );
        value["children"] = if leaf { json!([]) } else { Value::Null };
        text.push_str(if leaf { "\n" } else { " ...\n" });
        return Ok(value);
    }
    text.push('\n');
    match objects::children(ctx, path, object) {
        Ok(children) => {
            let mut list = Vec::new();
            for c in children {
                list.push(node(
                    ctx,
                    &c.name,
                    &c.path,
                    &c.object,
                    depth - 1,
                    level + 1,
                    count,
                    text,
                )?);
            }
            value["children"] = Value::Array(list);
        }
        Err(diags) => {
            // A program that does not parse: its steps cannot be known.
            value["children"] = Value::Null;
            value["error"] = diags.first().map_or(Value::Null, Diagnostic::to_json);
            text.push_str(&format!(
                "{}(steps unknown: the program does not parse)\n",
                "  ".repeat(level + 1)
            ));
        }
    }
    Ok(value)
}

/// `inspect(path)`: the object's description, its own data, and its
/// interfaces with their operations' signatures (text view and structured).
pub fn inspect(ctx: &Context, args: &Map<String, Value>) -> ToolResult {
    let run = || -> Result<ToolResult, Diagnostic> {
        no_other_args(args, &["path"])?;
        let path = string_arg(args, "path", true)?.unwrap_or("");
        let object = objects::resolve(ctx, path)?;
        let (description, data) = objects::describe(ctx, &object);
        let path = path.trim_matches('/');
        let mut text = format!(
            "{} {}\n  {description}\n",
            object.kind(),
            if path.is_empty() { "(root)" } else { path }
        );
        if let Some(step_text) = data.get("text").and_then(Value::as_str) {
            for line in step_text.lines() {
                text.push_str(&format!("  | {line}\n"));
            }
        }
        let interfaces: Vec<Value> = object
            .interfaces()
            .iter()
            .map(|i| {
                text.push_str(&ops::interface_text(i));
                json!({
                    "name": i.name,
                    "doc": i.doc,
                    "operations": i.operations.iter().map(ops::Operation::to_json).collect::<Vec<_>>(),
                })
            })
            .collect();
        if !interfaces.is_empty() {
            text.push_str(ops::TYPES_TEXT);
        }
        Ok(ToolResult {
            structured: json!({
                "ok": true,
                "diagnostics": [],
                "path": path,
                "kind": object.kind(),
                "description": description,
                "data": data,
                "interfaces": interfaces,
            }),
            text,
            is_error: false,
        })
    };
    run().unwrap_or_else(ToolResult::refused)
}

/// The target, interface and operation of an `invoke`, checked, with its arguments.
#[derive(Debug)]
pub struct Call {
    pub object: Object,
    pub target: String,
    pub interface: &'static ops::Interface,
    pub operation: &'static ops::Operation,
    pub arguments: Map<String, Value>,
}

/// Checks an `invoke` request before anything runs: the target exists, it
/// has the interface, the interface has the operation, and the arguments
/// fit the operation's parameters.
pub fn prepare(ctx: &Context, args: &Map<String, Value>) -> Result<Call, Diagnostic> {
    no_other_args(args, &["target", "interface", "operation", "arguments"])?;
    let target = string_arg(args, "target", true)?.unwrap_or("");
    let interface = string_arg(args, "interface", true)?.unwrap_or("");
    let operation = string_arg(args, "operation", true)?.unwrap_or("");
    let arguments = match args.get("arguments") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(v) => {
            return Err(Diagnostic::error(
                Code::InvalidArguments,
                format!("`arguments` must be an object of named arguments, not {v:.80}"),
            )
            .with_hint("pass {} for an operation without parameters"))
        }
    };
    let object = objects::resolve(ctx, target)?;
    let Some(iface) = object.interfaces().iter().find(|i| i.name == interface) else {
        let names: Vec<&str> = object.interfaces().iter().map(|i| i.name).collect();
        return Err(Diagnostic::error(
            Code::UnknownOperation,
            format!(
                "the {} `{target}` has no interface `{interface}`",
                object.kind()
            ),
        )
        .with_hint(if names.is_empty() {
            "this object has no operations".to_owned()
        } else {
            format!("its interfaces: {}", names.join(", "))
        }));
    };
    let Some(op) = iface.operation(operation) else {
        let names: Vec<&str> = iface.operations.iter().map(|o| o.name).collect();
        return Err(Diagnostic::error(
            Code::UnknownOperation,
            format!("the interface {interface} has no operation `{operation}`"),
        )
        .with_hint(format!("its operations: {}", names.join(", "))));
    };
    op.check_arguments(&arguments)?;
    Ok(Call {
        object,
        target: target.trim_matches('/').to_owned(),
        interface: iface,
        operation: op,
        arguments,
    })
}

/// Runs a prepared call.
pub fn run_call(ctx: &Context, call: &Call) -> ToolResult {
    let out = invoke::invoke(ctx, &call.object, call.operation, &call.arguments);
    let outcome = if out.ok { "ok" } else { "failed" };
    let mut text = format!(
        "{} {}.{} on {}: {outcome}\n",
        if out.ok { "ok" } else { "failed" },
        call.interface.name,
        call.operation.name,
        call.target
    );
    for d in &out.diagnostics {
        let step = d
            .step
            .as_ref()
            .map_or(String::new(), |s| format!(" in step {s}"));
        text.push_str(&format!(
            "{}[{}]{step}: {}{}\n",
            severity(d),
            d.code,
            d.message,
            hint(d)
        ));
    }
    let mut result = out.fields.clone();
    for (k, v) in &out.fields {
        match v {
            Value::String(s) if k == "text" => text.push_str(&format!("{k}:\n{s}")),
            _ => text.push_str(&format!("{k}: {v}\n")),
        }
    }
    for e in &out.reference_errors {
        text.push_str(&format!(
            "(succeeded, but a reference could not be fetched: {e})\n"
        ));
    }
    result.remove("ok");
    ToolResult {
        structured: json!({
            "ok": out.ok,
            "outcome": outcome,
            "diagnostics": out.diagnostics.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
            "target": call.target,
            "interface": call.interface.name,
            "operation": call.operation.name,
            "result": result,
            "reference_errors": out.reference_errors,
        }),
        text,
        is_error: !out.ok,
    }
}

/// The answer for a call whose outcome is unknown (it did not finish in
/// time): never retried; the caller decides.
pub fn unknown_outcome(call: &Call, seconds: u64) -> ToolResult {
    let d = Diagnostic::error(
        Code::OutcomeUnknown,
        format!(
            "{}.{} on {} did not finish within {seconds} s; whether it took effect is unknown",
            call.interface.name, call.operation.name, call.target
        ),
    )
    .with_hint(
        "the call was not retried; inspect the target to see its state before calling again",
    );
    ToolResult {
        text: format!(
            "unknown {}.{} on {}: {}\n",
            call.interface.name, call.operation.name, call.target, d.message
        ),
        structured: json!({
            "ok": false,
            "outcome": "unknown",
            "diagnostics": [d.to_json()],
            "target": call.target,
            "interface": call.interface.name,
            "operation": call.operation.name,
            "result": {},
            "reference_errors": [],
        }),
        is_error: true,
    }
}
