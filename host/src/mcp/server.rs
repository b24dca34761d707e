//! The MCP server: the three tools over stdio with the official Rust SDK
//! (rmcp), which speaks every protocol revision it knows (2024-11-05 to
//! 2026-07-28) and negotiates down as the protocol says. stdout is the
//! protocol; logs go to stderr.

use super::{schema, Context, ToolResult};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// The longest message the transport reads; a longer line is dropped by the
/// SDK unanswered. It is far above [`super::MAX_ARGUMENT_BYTES`], so that an
/// oversized argument gets its `argument_too_large` answer.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// How long an `invoke` may take by default before its outcome is reported
/// as unknown.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The server: the tools' context, shared with the worker threads that run
/// the calls.
#[derive(Debug, Clone)]
pub struct Server {
    ctx: Arc<Context>,
    timeout: Duration,
}

impl Server {
    pub fn new(ctx: Context, timeout: Duration) -> Server {
        Server {
            ctx: Arc::new(ctx),
            timeout,
        }
    }

    /// The three tools with their schemas.
    pub fn tools() -> Vec<Tool> {
        let object = |v: Value| Arc::new(v.as_object().cloned().unwrap_or_default());
        let tool = |name: &'static str, doc: &'static str, input: Value, output: Value| {
            Tool::new(name, doc, object(input)).with_raw_output_schema(object(output))
        };
        vec![
            tool(
                "tree",
                "List the objects within a depth of a path: the root \"\", programs (folders, .isu files and their steps by step ID), stdlib, packs, backends. Every object within the depth is listed, or the call fails saying how to narrow it.",
                schema::tree_input(),
                schema::tree_output(),
            ),
            tool(
                "inspect",
                "Describe the object at a path and its interfaces: each operation's signature, parameters and result.",
                schema::inspect_input(),
                schema::inspect_output(),
            ),
            tool(
                "invoke",
                "Run an operation of an object's interface with named arguments, checked against its parameters before the call. Failures a model can fix (parse errors, failing examples) come back as results with isError and the diagnostics.",
                schema::invoke_input(),
                schema::invoke_output(),
            ),
        ]
    }

    /// Answers one tool call (the unknown tool is the caller's protocol error).
    pub async fn call(&self, name: &str, args: Map<String, Value>) -> Option<ToolResult> {
        if let Err(d) = super::check_size(&args) {
            return Some(ToolResult::refused(d));
        }
        let ctx = self.ctx.clone();
        Some(match name {
            "tree" => blocking(move || super::tree(&ctx, &args)).await,
            "inspect" => blocking(move || super::inspect(&ctx, &args)).await,
            "invoke" => {
                let call = match super::prepare(&ctx, &args) {
                    Ok(call) => Arc::new(call),
                    Err(d) => return Some(ToolResult::refused(d)),
                };
                let running = call.clone();
                let work = tokio::task::spawn_blocking(move || super::run_call(&ctx, &running));
                match tokio::time::timeout(self.timeout, work).await {
                    Ok(done) => done.unwrap_or_else(|e| internal(&e.to_string())),
                    // The worker goes on; its outcome is unknown and nothing retries it.
                    Err(_) => super::unknown_outcome(&call, self.timeout.as_secs()),
                }
            }
            _ => return None,
        })
    }
}

async fn blocking(f: impl FnOnce() -> ToolResult + Send + 'static) -> ToolResult {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| internal(&e.to_string()))
}

/// A worker that panicked: a bug, reported as a failed call.
fn internal(message: &str) -> ToolResult {
    ToolResult::refused(crate::diag::Diagnostic::error(
        crate::diag::Code::InternalError,
        format!("the call failed inside the server (a bug: please report it): {message}"),
    ))
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("isu", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Isu programs as objects: tree to find them, inspect to learn their operations, invoke to check, run, test, patch and build them.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(Server::tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        Server::tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        match self.call(&request.name, args).await {
            Some(r) => {
                let mut result = if r.is_error {
                    CallToolResult::structured_error(r.structured)
                } else {
                    CallToolResult::structured(r.structured)
                };
                result.content = vec![ContentBlock::text(r.text)];
                Ok(result.into())
            }
            None => Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}`; the tools are tree, inspect and invoke",
                    request.name
                ),
                None,
            )),
        }
    }
}

/// Serves `ctx` on stdin and stdout until the client closes stdin.
pub fn serve_stdio(ctx: Context, timeout: Duration) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    let served = runtime.block_on(async move {
        let service = Server::new(ctx, timeout)
            .serve(
                AsyncRwTransport::<RoleServer, _, _>::new(tokio::io::stdin(), tokio::io::stdout())
                    .with_max_line_length(MAX_MESSAGE_BYTES),
            )
            .await
            .map_err(|e| format!("starting the MCP session: {e}"))?;
        service
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("serving: {e}"))
    });
    // A call whose outcome is unknown may still be running: do not wait for it.
    runtime.shutdown_background();
    served
}
