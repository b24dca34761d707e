//! The LLVM backend: canonical, validated IIR to native code through LLVM 19
//! (inkwell), behind [`isu_plugin_api::Backend`].
//!
//! One file per concern: [`lower`] turns the program into the function
//! `isu_run` (statements, expressions, element stores, standard functions,
//! constants), [`module`] links it with the core runtime (`runtime/core`, C
//! compiled to bitcode by clang 19 when the plugin is built), writes the
//! table the driver reads and runs LLVM's `-O2` pipeline, [`debug`] gives
//! every step its source line, [`native`] links the program's object with
//! the driver's (`runtime/driver`: `main`, JSON, error reports) with `cc`,
//! [`exec`] runs it as a subprocess. [`pack`] checks and links the packs'
//! lowerings (LLVM IR a pack gives for its functions). [`abi`] is what the module and the
//! runtime agree on; `spec/llvm-abi.md` documents it.
//!
//! Everything here is `#[cfg(isu_llvm)]`, which `build.rs` sets where it
//! finds LLVM 19; where LLVM 19 is missing, the library holds no backend but
//! the reason it was left out and the fix (`export_left_out!`), which `isu`
//! reports when it refuses the plugin (README: "The LLVM backend and
//! building without LLVM"). A new item of this file needs the cfg too.

#[cfg(isu_llvm)]
pub mod abi;
#[cfg(isu_llvm)]
pub mod debug;
#[cfg(isu_llvm)]
pub mod exec;
#[cfg(isu_llvm)]
mod lower;
#[cfg(isu_llvm)]
pub mod module;
#[cfg(isu_llvm)]
pub mod native;
#[cfg(isu_llvm)]
pub mod pack;

#[cfg(isu_llvm)]
use inkwell::context::Context;
#[cfg(isu_llvm)]
use isu_plugin_api::{
    Artifact, Backend, BackendCode, BackendInfo, CompileOptions, ExecLimits, ExecOptions,
    FeatureSet, Literal, PluginDiagnostic, Program,
};

/// The artifact kinds, the default first: an executable, an object file,
/// textual IR, bitcode.
#[cfg(isu_llvm)]
pub const EMITS: [&str; 4] = ["exe", "obj", "ll", "bc"];

/// The backend.
#[cfg(isu_llvm)]
#[derive(Debug, Default)]
pub struct LlvmBackend;

#[cfg(isu_llvm)]
impl LlvmBackend {
    pub fn new() -> LlvmBackend {
        LlvmBackend
    }
}

#[cfg(isu_llvm)]
fn failed(message: impl Into<String>) -> Vec<PluginDiagnostic> {
    vec![PluginDiagnostic::backend(
        BackendCode::BackendFailed,
        message,
    )]
}

/// The file name of an artifact of `kind` for the function `name`.
#[cfg(isu_llvm)]
pub fn file_name(name: &str, kind: &str) -> String {
    match kind {
        "exe" => name.to_owned(),
        "obj" => format!("{name}.o"),
        other => format!("{name}.{other}"),
    }
}

/// Builds the artifacts of `kinds` (each one of [`EMITS`]) for `program`.
#[cfg(isu_llvm)]
pub fn build(
    program: &Program,
    kinds: &[&str],
    opts: &module::Options,
) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
    // The lowering knows no node of a feature the backend does not declare.
    LlvmBackend
        .info()
        .check_features(program)
        .map_err(|d| vec![d])?;
    let tm = module::target_machine().map_err(|e| failed(e.to_string()))?;
    let cx = Context::create();
    let m = module::build(&cx, program, opts, &tm).map_err(|e| match e {
        module::BuildError::Pack(d) => vec![d],
        module::BuildError::Llvm(m) => {
            vec![PluginDiagnostic::backend(BackendCode::InvalidProgram, m)
                .with_hint("the program must be canonical and validated before compiling")]
        }
    })?;
    let name = &program.func.name.name;
    let mut object = None;
    let mut out = Vec::new();
    for kind in kinds {
        let bytes = match *kind {
            "ll" => m.print_to_string().to_bytes().to_vec(),
            "bc" => m.write_bitcode_to_memory().as_slice().to_vec(),
            "obj" | "exe" => {
                let obj = match &object {
                    Some(o) => o,
                    None => {
                        object.insert(module::object(&m, &tm).map_err(|e| failed(e.to_string()))?)
                    }
                };
                let what = if *kind == "obj" {
                    native::Output::Object
                } else {
                    native::Output::Executable
                };
                native::link(obj, name, what).map_err(|e| failed(e.to_string()))?
            }
            other => {
                return Err(vec![PluginDiagnostic::backend(
                    BackendCode::UnsupportedEmit,
                    format!("the llvm backend emits {}, not `{other}`", EMITS.join(", ")),
                )])
            }
        };
        let artifact = Artifact::new(kind, file_name(name, kind), bytes);
        // The executable is written with the execute permission.
        out.push(if *kind == "exe" {
            artifact.as_executable()
        } else {
            artifact
        });
    }
    Ok(out)
}

#[cfg(isu_llvm)]
impl Backend for LlvmBackend {
    fn info(&self) -> BackendInfo {
        // The whole language as of feature vocabulary 7 (floats:
        // lower/float.rs, runtime/core/float.c). `execute` runs the
        // executable it built, native code: the host isolates it.
        BackendInfo::new(
            "llvm",
            env!("CARGO_PKG_VERSION"),
            &["llvm"],
            FeatureSet::all_of(7),
        )
        .emitting(&EMITS)
        .executing("exe", true)
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if !options.target.is_empty() && options.target != "llvm" {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::UnsupportedTarget,
                format!(
                    "the llvm backend builds the target `llvm`, not `{}`",
                    options.target
                ),
            )]);
        }
        let kinds: Vec<&str> = if options.emit.is_empty() {
            vec![EMITS[0]]
        } else {
            options.emit.iter().map(String::as_str).collect()
        };
        let opts = module::Options {
            source: format!("{}.isu", program.func.name.name),
            limits: ExecLimits::DEFAULT,
            optimize: true,
            lowerings: options.lowerings.clone(),
        };
        build(program, &kinds, &opts)
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let exe = artifacts.iter().find(|a| a.kind == "exe").ok_or_else(|| {
            PluginDiagnostic::backend(
                BackendCode::CannotExecute,
                "no executable to run: build with --emit exe (the default)",
            )
        })?;
        exec::run(&exe.bytes, &exe.file_name, args, &options.limits)
    }
}

// The plugin library's root module (spec/plugin-abi.md): the host loads this
// backend through `isu-plugins.toml`.
#[cfg(isu_llvm)]
isu_plugin_api::export_backend!(LlvmBackend);

// Without LLVM 19: why the library holds no backend, and what to do.
#[cfg(not(isu_llvm))]
isu_plugin_api::export_left_out!(env!("ISU_LLVM_LEFT_OUT"), env!("ISU_LLVM_FIX"));
