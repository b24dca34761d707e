//! A test fixture: a backend as built before structs. Its root module says
//! plugin API 2.1 (2.2 kept the backend root module's layout), it reads IIR
//! `isu-iir/0.1` (any `isu-iir/0.x`, as a reader of major 0 does) and
//! declares feature vocabulary 4, the last without `struct`. Its reader is
//! as strict as one generated from the 0.1 model: a program key the model
//! lacks (`types`), or a struct type, expression or place (`{"struct": ...}`,
//! `{"field": ...}`), fails its compile. It emits the program it was sent,
//! so a test sees exactly what the host writes for an old plugin.

use isu_plugin_api::abi::__private::abi_stable::prefix_type::PrefixTypeTrait;
use isu_plugin_api::abi::__private::abi_stable::std_types::{RResult, RSlice, RStr, RVec};
use isu_plugin_api::abi::__private::{self as isu, CompileResult, JsonResult};
use isu_plugin_api::abi::{AbiArtifact, ApiVersion, BackendMod, BackendModRef};
use isu_plugin_api::{Artifact, BackendCode, BackendInfo, FeatureSet, PluginDiagnostic};
use serde_json::Value;

/// The keys of a program in IIR 0.1.
const PROGRAM_KEYS: &[&str] = &["format", "auto_id", "func", "io", "state", "locals", "body"];

/// Keys that name a node IIR 0.1 does not have.
const NEWER_NODES: &[&str] = &["struct", "field"];

fn diagnostics(message: String) -> RResult<RVec<AbiArtifact>, isu::abi_stable::std_types::RString> {
    let d = PluginDiagnostic::backend(BackendCode::InvalidProgram, message);
    RResult::RErr(serde_json::to_string(&[d]).unwrap_or_default().into())
}

extern "C" fn info() -> JsonResult {
    let mut info =
        BackendInfo::new("v01", "0.1.0", &["v01"], FeatureSet::all_of(4)).emitting(&["iir-json"]);
    info.iir = vec!["isu-iir/0.1".to_owned()];
    match serde_json::to_string(&info) {
        Ok(json) => RResult::ROk(json.into()),
        Err(e) => RResult::RErr(e.to_string().into()),
    }
}

/// The first key or node of `v` that IIR 0.1 does not have, with its path.
fn newer(v: &Value, path: &str) -> Option<String> {
    match v {
        Value::Object(m) => m.iter().find_map(|(k, x)| {
            if NEWER_NODES.contains(&k.as_str()) {
                Some(format!("{path}.{k}"))
            } else {
                newer(x, &format!("{path}.{k}"))
            }
        }),
        Value::Array(xs) => xs
            .iter()
            .enumerate()
            .find_map(|(i, x)| newer(x, &format!("{path}[{i}]"))),
        _ => None,
    }
}

extern "C" fn compile(iir: RStr<'_>, _options: RStr<'_>) -> CompileResult {
    let program: Value = match serde_json::from_str(iir.as_str()) {
        Ok(v) => v,
        Err(e) => return diagnostics(format!("not IIR JSON: {e}")),
    };
    let Value::Object(keys) = &program else {
        return diagnostics("IIR 0.1 is a JSON object".to_owned());
    };
    if let Some(k) = keys.keys().find(|k| !PROGRAM_KEYS.contains(&k.as_str())) {
        return diagnostics(format!("IIR 0.1 has no program key `{k}`"));
    }
    let format = keys.get("format").and_then(Value::as_str).unwrap_or("");
    if !format.starts_with("isu-iir/0.") {
        return diagnostics(format!("a reader of isu-iir/0.1 cannot read `{format}`"));
    }
    if let Some(at) = newer(&program, "") {
        return diagnostics(format!("IIR 0.1 has no node at `{at}`"));
    }
    let artifact = Artifact::new("iir-json", "program.json", iir.as_str().as_bytes().to_vec());
    match AbiArtifact::from_artifact(&artifact) {
        Ok(a) => RResult::ROk(vec![a].into()),
        Err(d) => diagnostics(d.message),
    }
}

extern "C" fn execute(_: RSlice<'_, AbiArtifact>, _: RStr<'_>, _: RStr<'_>) -> JsonResult {
    let d = PluginDiagnostic::backend(BackendCode::CannotExecute, "the v01 fixture only compiles");
    RResult::RErr(serde_json::to_string(&d).unwrap_or_default().into())
}

fn module() -> BackendModRef {
    BackendMod {
        api_version: ApiVersion { major: 2, minor: 1 },
        info,
        compile,
        execute,
    }
    .leak_into_prefix()
}

extern "C" fn loader() -> isu::abi_stable::library::RootModuleResult {
    isu::root_module(module)
}

#[allow(unsafe_code, non_upper_case_globals)]
#[no_mangle]
pub static _1as_0lib_1header_0root_bmodule_bloader: isu::LibHeader =
    unsafe { isu::LibHeader::from_constructor::<BackendModRef>(loader, isu::CheckTypeLayout::Yes) };
