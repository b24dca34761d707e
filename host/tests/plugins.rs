//! Loading real plugin libraries: the working ones and each deliberately
//! broken fixture of `plugins/testing/`, through a manifest, as the CLI does.
//! The libraries are the workspace's `cdylib`s, built by the test itself
//! (`common::built`).

mod common;

use common::built;
use isu_host::plugins::{manifest, Layer, LayerStatus, Loaded, Place, PluginKind, Registry, State};
use isu_plugin_api::iir::{
    Block, Decl, Expr, ExprNode, Func, Ident, Io, Node, Program, Span, Step, StepId, IIR_FORMAT,
};
use isu_plugin_api::{
    Backend, BinaryOp, CompileOptions, DiagnosticKind, ExecLimits, ExecOptions, IirFormat, Literal,
    Pack, Scalar, Type,
};
use std::path::{Path, PathBuf};

/// A registry from manifest text where `@crate` stands for that crate's library.
fn registry(text: &str) -> Registry {
    let mut text = text.to_owned();
    for name in built::PLUGINS {
        let pattern = format!("@{name}\"");
        if text.contains(&pattern) {
            let lib = built::library(name);
            text = text.replace(&pattern, &format!("{}\"", lib.display()));
        }
    }
    let place = Place::File(PathBuf::from("/nowhere/isu-plugins.toml"));
    let m = manifest::parse(&place, Layer::Flag, &text);
    match m {
        Ok(m) => Registry::load(&m),
        Err(e) => panic!("manifest: {e}"),
    }
}

fn backend_entry(name: &str, file: &str) -> String {
    format!("[[plugin]]\nname = \"{name}\"\nkind = \"backend\"\nfile = \"@{file}\"\n\n")
}

/// `inc(a: int) -> int`: `S1: RETURN (add (var a) (const 1))`.
fn inc_program() -> Program {
    let s = Span::default();
    let ident = |n: &str| Ident {
        name: n.into(),
        span: s,
    };
    let e = |node| Expr {
        span: s,
        ty: Some(Type::Int),
        node,
    };
    let sum = ExprNode::Binary {
        op: BinaryOp::Add,
        lhs: Box::new(e(ExprNode::Var { name: "a".into() })),
        rhs: Box::new(e(ExprNode::Const {
            value: Literal::Int(1),
        })),
    };
    Program {
        types: Vec::new(),
        format: IIR_FORMAT.into(),
        auto_id: false,
        func: Func {
            name: ident("inc"),
            args: vec![Decl {
                name: ident("a"),
                ty: Type::Int,
                span: s,
            }],
            returns: Type::Int,
            span: s,
        },
        io: Io {
            input: vec![],
            output: vec![],
            span: s,
        },
        state: vec![],
        locals: vec![],
        body: Block {
            steps: vec![Step {
                id: StepId::parse("S1"),
                desc: None,
                span: s,
                node: Node::Return { expr: e(sum) },
            }],
            span: s,
        },
    }
}

fn args(a: i64) -> Literal {
    Literal::Object([("a".to_owned(), Literal::Int(a))].into_iter().collect())
}

const LIMITS: ExecLimits = ExecLimits {
    max_steps: 1000,
    max_size: 1000,
    max_memory: 4000,
};

fn options(target: &str) -> CompileOptions {
    CompileOptions {
        target: target.into(),
        ..CompileOptions::default()
    }
}

fn run_options() -> ExecOptions {
    ExecOptions::new(LIMITS)
}

/// The refusal of the only plugin of a registry: (code, message, fix).
fn refusal(reg: &Registry) -> (String, String, String) {
    match reg.plugins.first().map(|p| &p.result) {
        Some(Err(e)) => (e.code.to_owned(), e.message.clone(), e.fix.clone()),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_working_backend_compiles_and_executes_across_the_boundary() {
    let reg = registry(&backend_entry("toy", "isu_backend_toy"));
    assert!(reg.errors().is_empty(), "{:?}", reg.errors());
    let (entry, toy) = reg.backend("toy").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(entry.name, "toy");
    assert_eq!(toy.info().name, "toy");
    let api = reg.plugins[0].result.as_ref().map(|l| l.api_version());
    assert_eq!(api.ok(), Some(isu_plugin_api::abi::PLUGIN_API_VERSION));
    let artifacts = toy.compile(&inc_program(), &options("toy"));
    let artifacts = artifacts.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(artifacts[0].file_name, "inc.toy.json");
    assert_eq!(
        toy.execute(&artifacts, &args(41), &run_options()),
        Ok(Literal::Int(42))
    );
    let err = toy.execute(&artifacts, &args(i64::MAX), &run_options());
    let err = err.err().map(|d| (d.kind, d.code, d.step));
    assert_eq!(
        err,
        Some((
            DiagnosticKind::RuntimeError,
            "int_overflow".into(),
            Some("S1".into())
        ))
    );
}

#[test]
fn several_backends_of_one_root_module_type_load_side_by_side() {
    let text =
        backend_entry("toy", "isu_backend_toy") + &backend_entry("panicky", "isu_test_panicky");
    let reg = registry(&text);
    assert!(reg.errors().is_empty(), "{:?}", reg.errors());
    assert_eq!(reg.targets(), ["toy", "panicky"]);
    let names: Vec<String> = reg
        .backends()
        .iter()
        .map(|(_, b, _)| b.info().name)
        .collect();
    assert_eq!(names, ["toy", "panicky"]);
}

#[test]
fn a_panicking_backend_gives_errors_and_the_host_goes_on() {
    let reg = registry(&backend_entry("panicky", "isu_test_panicky"));
    let (_, backend) = reg.backend("panicky").unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..2 {
        let errs = backend.compile(&inc_program(), &options("panicky"));
        let errs = errs.err().unwrap_or_default();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].code, "plugin_panicked");
        assert!(
            errs[0].message.contains("panicked in compile"),
            "{}",
            errs[0].message
        );
        assert!(
            errs[0].message.contains("compile of inc went wrong"),
            "{}",
            errs[0].message
        );
        assert!(
            errs[0].message.contains("src/lib.rs:"),
            "the location: {}",
            errs[0].message
        );
        let err = backend.execute(&[], &args(1), &run_options()).err();
        assert_eq!(err.map(|d| d.code), Some("plugin_panicked".into()));
    }
}

#[test]
fn a_backend_answering_garbage_gives_errors() {
    let reg = registry(&backend_entry("garbage", "isu_test_garbage"));
    let (_, backend) = reg.backend("garbage").unwrap_or_else(|e| panic!("{e}"));
    let errs = backend
        .compile(&inc_program(), &options("garbage"))
        .err()
        .unwrap_or_default();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code, "plugin_bad_output");
    assert!(
        errs[0].message.contains("without saying why"),
        "{}",
        errs[0].message
    );
    let err = backend.execute(&[], &args(1), &run_options()).err();
    let err = err.map(|d| (d.code, d.message)).unwrap_or_default();
    assert_eq!(err.0, "plugin_bad_output");
    assert!(err.1.contains("(`{not json`)"), "{}", err.1);
}

#[test]
fn a_newer_plugin_api_is_refused_before_any_call() {
    let reg = registry(&backend_entry("future", "isu_test_newer_api"));
    let (code, message, fix) = refusal(&reg);
    assert_eq!(code, "plugin_api_version");
    assert_eq!(
        message,
        "it was built for plugin API 3.0, a newer version than this isu's 2.3"
    );
    assert!(fix.contains("plugin API 3.x"), "{fix}");
    let err = reg.backend("future").err().unwrap_or_default();
    assert!(err.starts_with("plugin `future` refused:"), "{err}");
}

#[test]
fn a_plugin_of_api_1_is_refused_naming_both_versions() {
    let reg = registry(&backend_entry("old", "isu_test_api_v1"));
    let (code, message, fix) = refusal(&reg);
    assert_eq!(code, "plugin_api_version");
    assert_eq!(
        message,
        "it was built for plugin API 1.0, an older version than this isu's 2.3"
    );
    assert_eq!(fix, "rebuild the plugin against isu_plugin_api 2.x");
}

#[test]
fn a_later_minor_iir_with_annotations_reaches_an_older_plugin_intact() {
    let toy = isu_plugin_api::abi::load_backend(&built::library("isu_backend_toy"));
    let toy = toy.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(toy.iir_format(), IirFormat::current());
    // The IIR of a host one minor version ahead: a new format number and
    // annotations (on the program, a step, an expression) the toy, built
    // against this crate, does not know.
    let mut iir = serde_json::to_value(inc_program()).unwrap_or_default();
    let newer = IirFormat {
        minor: IirFormat::current().minor + 1,
        ..IirFormat::current()
    };
    iir["format"] = newer.to_string().into();
    iir["annotations"] = serde_json::json!({"pure": true});
    iir["body"]["steps"][0]["cost"] = 1.into();
    iir["body"]["steps"][0]["node"]["expr"]["range"] = serde_json::json!([1, 9]);
    let artifacts = toy.compile_json(&iir.to_string(), &options("toy"));
    let artifacts = artifacts.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        toy.execute(&artifacts, &args(41), &run_options()),
        Ok(Literal::Int(42))
    );
    iir["format"] = "isu-iir/9.0".into();
    let refused = toy.compile_json(&iir.to_string(), &options("toy")).err();
    assert_eq!(
        refused.map(|ds| ds[0].code.clone()).as_deref(),
        Some("plugin_bad_input")
    );
}

#[test]
fn a_layout_mismatch_is_refused_in_a_few_lines() {
    let reg = registry(&backend_entry("skewed", "isu_test_layout"));
    let (code, message, _) = refusal(&reg);
    assert_eq!(code, "layout_mismatch");
    assert!(message.starts_with("its root module does not have the layout of a backend"));
    assert!(
        message.lines().count() == 1 && message.len() < 400,
        "too long: {message}"
    );
    assert!(
        message.ends_with("fields expected: api_version, info, compile, execute; found: api_version, info, execute"),
        "{message}"
    );
    let details = reg.plugins[0]
        .result
        .as_ref()
        .err()
        .and_then(|e| e.details.clone());
    assert!(details.is_some_and(|d| d.lines().count() > 10));
}

#[test]
fn another_abi_stable_is_refused_naming_both_versions() {
    let reg = registry(&backend_entry("old", "isu_test_old_abi"));
    let (code, message, _) = refusal(&reg);
    assert_eq!(code, "abi_stable_version");
    assert_eq!(
        message,
        "it was built with abi_stable 0.9, whose ABI differs from this isu's abi_stable 0.11"
    );
}

#[test]
fn a_missing_file_is_refused_with_the_fix() {
    let reg = registry(
        "[[plugin]]\nname = \"ghost\"\nkind = \"backend\"\nfile = \"/nowhere/libghost.so\"\n",
    );
    let (code, message, fix) = refusal(&reg);
    assert_eq!(code, "missing_file");
    assert_eq!(message, "there is no file /nowhere/libghost.so");
    assert!(fix.contains("cargo build"), "{fix}");
}

#[test]
fn a_library_that_left_its_plugin_out_is_refused_as_missing_with_its_reason() {
    // What the LLVM backend's crate builds where LLVM 19 is missing.
    let lib = built::library("isu_test_left_out");
    for kind in [
        "kind = \"backend\"",
        "kind = \"pack\"\nnamespace = \"fixture\"",
    ] {
        let reg = registry(&format!(
            "[[plugin]]\nname = \"fixture\"\n{kind}\nfile = \"@isu_test_left_out\"\n"
        ));
        let (code, message, fix) = refusal(&reg);
        assert_eq!(code, "missing_file");
        assert_eq!(
            message,
            format!(
                "{} holds no plugin: the fixture backend was left out of this build: it needs a tool this test lacks",
                lib.display()
            )
        );
        assert_eq!(
            fix,
            "install the fixture's tool, then build the plugin again"
        );
    }
    // A library without a root module that says nothing is still not a plugin.
    let reg = registry(&backend_entry("old", "isu_test_old_abi"));
    assert_ne!(refusal(&reg).0, "missing_file");
}

/// A scratch folder of this test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("plugins-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

#[test]
fn a_file_that_is_not_a_library_says_so() {
    let dir = scratch("not-a-library");
    let text = dir.join("notes.txt");
    std::fs::write(&text, "hello").unwrap_or_else(|e| panic!("{e}"));
    // An executable (ELF, as a library is) that the loader refuses.
    let exe = env!("CARGO_BIN_EXE_isu");
    for (file, why) in [
        (
            text.display().to_string(),
            "(it is not an ELF, Mach-O or PE file)".to_owned(),
        ),
        (dir.display().to_string(), "(it is a folder)".to_owned()),
        (exe.to_owned(), String::new()),
    ] {
        let reg = registry(&format!(
            "[[plugin]]\nname = \"x\"\nkind = \"backend\"\nfile = {file:?}\n"
        ));
        let (code, message, fix) = refusal(&reg);
        assert_eq!(code, "not_a_library", "{file}");
        assert!(
            message.starts_with(&format!(
                "{file} is not a shared library this system can load"
            )),
            "{message}"
        );
        assert!(message.ends_with(&why) || why.is_empty(), "{message}");
        assert!(fix.contains("dynamic library"), "{fix}");
    }
}

#[test]
fn a_pack_listed_as_a_backend_is_a_layout_mismatch() {
    let reg = registry(&backend_entry("math", "isu_pack_math"));
    let (code, _, fix) = refusal(&reg);
    assert_eq!(code, "layout_mismatch");
    assert!(fix.contains("`kind`"), "{fix}");
}

#[test]
fn a_second_backend_for_a_target_is_refused() {
    let text = backend_entry("toy", "isu_backend_toy") + &backend_entry("toy2", "isu_backend_toy");
    let reg = registry(&text);
    assert!(reg.plugins[0].result.is_ok());
    let err = reg.plugins[1].result.as_ref().err();
    assert_eq!(err.map(|e| e.code), Some("duplicate_target"));
    let text = err.map(ToString::to_string).unwrap_or_default();
    assert!(
        text.contains("target `toy` is already served by plugin `toy` (line 1 of /nowhere/isu-plugins.toml (--plugins))"),
        "{text}"
    );
    assert!(
        text.contains("fix: use one backend for `toy`: disable `toy`"),
        "{text}"
    );
    let text = backend_entry("toy", "isu_backend_toy")
        + "[[plugin]]\nname = \"other\"\nkind = \"backend\"\nfile = \"@isu_backend_toy\"\ntargets = [\"elsewhere\"]\n";
    let reg = registry(&text);
    let err = reg.plugins[1]
        .result
        .as_ref()
        .err()
        .map(|e| (e.code, e.message.clone()));
    assert_eq!(
        err,
        Some((
            "manifest_mismatch",
            "the manifest lists it for target `elsewhere`, but it serves only toy".into()
        ))
    );
}

#[test]
fn a_pack_adds_typed_functions_with_lowerings() {
    let reg = registry(
        "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"math\"\n",
    );
    assert!(reg.errors().is_empty(), "{:?}", reg.errors());
    let Some(Ok(Loaded::Pack { pack, info })) = reg.plugins.first().map(|p| &p.result) else {
        panic!("the pack did not load");
    };
    assert_eq!(info.namespace, "math");
    assert_eq!(
        pack.call("GCD", &[Literal::Int(12), Literal::Int(18)]),
        Ok(Literal::Int(6))
    );
    let gcd = reg.functions.get("math.GCD");
    assert_eq!(
        gcd.map(|f| f.signature.to_string()),
        Some("(int, int) -> int".into())
    );
    let gcd = gcd.map(|f| {
        (
            f.call(&[Literal::Int(i64::MIN), Literal::Int(0)], u64::MAX),
            f.lower("toy"),
        )
    });
    let Some((Err(overflow), Ok(None))) = gcd else {
        panic!("{gcd:?}");
    };
    assert_eq!(
        (overflow.code.as_str(), overflow.step),
        ("int_overflow", None)
    );
    let names: Vec<&str> = reg.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "math.CLAMP",
            "math.GCD",
            "math.ISQRT",
            "math.LCM",
            "math.MAX",
            "math.MIN",
            "math.POW"
        ]
    );
    let pow = reg.functions.get("math.POW").map(|f| f.errors.clone());
    assert_eq!(
        pow.unwrap_or_default().first().map(String::as_str),
        Some("out_of_domain: the exponent is negative")
    );
    let wrong = registry(
        "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"maths\"\n",
    );
    assert_eq!(refusal(&wrong).0, "manifest_mismatch");
    assert!(wrong.functions.is_empty());
}

#[test]
fn a_pack_gets_the_run_size_limit_across_the_boundary() {
    let reg = registry(
        "[[plugin]]\nname = \"text\"\nkind = \"pack\"\nfile = \"@isu_pack_text\"\nnamespace = \"text\"\n",
    );
    assert!(reg.errors().is_empty(), "{:?}", reg.errors());
    let pad = reg.functions.get("text.PAD_LEFT");
    let args = [
        Literal::Str("7".into()),
        Literal::Int(3),
        Literal::Str("0".into()),
    ];
    let within = pad.map(|f| (f.call(&args, 3), f.call(&args, 2).map_err(|d| d.code)));
    assert_eq!(
        within,
        Some((Ok(Literal::Str("007".into())), Err("size_limit".into())))
    );
}

/// The fixture pack `crate` (namespace `old`), loaded through a manifest:
/// its plugin-API version, and its functions `ADD` and `REPEAT`.
fn old_pack(krate: &str) -> (String, Registry) {
    let reg = registry(&format!(
        "[[plugin]]\nname = \"old\"\nkind = \"pack\"\nfile = \"@{krate}\"\nnamespace = \"old\"\n"
    ));
    assert!(reg.errors().is_empty(), "{krate}: {:?}", reg.errors());
    let version = match reg.plugins.first().map(|p| &p.result) {
        Some(Ok(loaded)) => loaded.api_version().to_string(),
        other => panic!("{krate} did not load: {other:?}"),
    };
    (version, reg)
}

fn repeat_args(n: i64) -> [Literal; 2] {
    [Literal::Str("ab".into()), Literal::Int(n)]
}

#[test]
fn a_pack_built_against_plugin_api_2_1_is_called_by_name_within_the_size_limit() {
    let (version, reg) = old_pack("isu_test_pack_v21");
    assert_eq!(version, "2.1");
    let add = reg.functions.get("old.ADD");
    let sum = add.map(|f| f.call(&[Literal::Int(2), Literal::Int(40)], 9));
    assert_eq!(sum, Some(Ok(Literal::Int(42))));
    let overflow = add.map(|f| f.call(&[Literal::Int(i64::MAX), Literal::Int(1)], 9));
    assert_eq!(
        overflow.map(|r| r.map_err(|d| d.code)),
        Some(Err("int_overflow".into()))
    );
    let repeat = reg.functions.get("old.REPEAT");
    let within = repeat.map(|f| (f.call(&repeat_args(2), 4), f.call(&repeat_args(3), 4)));
    let Some((Ok(fits), Err(over))) = within else {
        panic!("{within:?}");
    };
    assert_eq!(fits, Literal::Str("abab".into()));
    assert_eq!(over.code, "size_limit", "the size limit did not cross");
}

#[test]
fn a_pack_built_against_plugin_api_2_0_is_called_by_name_without_the_size_limit() {
    let (version, reg) = old_pack("isu_test_pack_v20");
    assert_eq!(version, "2.0");
    let add = reg.functions.get("old.ADD");
    let sum = add.map(|f| f.call(&[Literal::Int(2), Literal::Int(40)], 9));
    assert_eq!(sum, Some(Ok(Literal::Int(42))));
    // A 2.0 pack never sees the limit: the interpreter checks the size of
    // the result it gets back.
    let repeat = reg.functions.get("old.REPEAT");
    let unlimited = repeat.map(|f| f.call(&repeat_args(3), 4));
    assert_eq!(unlimited, Some(Ok(Literal::Str("ababab".into()))));
}

#[test]
fn a_pack_built_against_plugin_api_2_2_is_called_by_position_its_scalar_calls_too() {
    let (version, reg) = old_pack("isu_test_pack_v22");
    assert_eq!(version, "2.2");
    let add = reg.functions.get("old.ADD");
    assert_eq!(add.map(|f| f.is_scalar()), Some(true));
    let sum = add.map(|f| f.call(&[Literal::Int(2), Literal::Int(40)], 9));
    assert_eq!(sum, Some(Ok(Literal::Int(42))));
    // Without `call_scalar`, a scalar call crosses by `call_at`.
    let sum = add.map(|f| f.call_scalars(&[Scalar::Int(2), Scalar::Int(40)], 9));
    assert_eq!(sum, Some(Ok(Scalar::Int(42))));
    let overflow = add.map(|f| f.call_scalars(&[Scalar::Int(i64::MAX), Scalar::Int(1)], 9));
    assert_eq!(
        overflow.map(|r| r.map_err(|d| d.code)),
        Some(Err("int_overflow".into()))
    );
    let repeat = reg.functions.get("old.REPEAT");
    assert_eq!(repeat.map(|f| f.is_scalar()), Some(false));
    let within = repeat.map(|f| (f.call(&repeat_args(2), 4), f.call(&repeat_args(3), 4)));
    let Some((Ok(fits), Err(over))) = within else {
        panic!("{within:?}");
    };
    assert_eq!(fits, Literal::Str("abab".into()));
    assert_eq!(over.code, "size_limit", "the size limit did not cross");
    // And a program calls it through the interpreter, its error at the
    // calling step.
    let run = |a: i64| run_with(&reg, "(call old.ADD (var a) (const 1))", a);
    assert_eq!(run(41), Ok(Literal::Int(42)));
    assert_eq!(
        run(i64::MAX),
        Err(("int_overflow".into(), Some("S1".into())))
    );
}

/// A pack of this plugin API answers the scalar calls of its scalar
/// functions by `call_scalar`, with the pack's own errors.
#[test]
fn a_pack_of_plugin_api_2_3_is_called_with_scalars() {
    let reg = registry(
        "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"math\"\n",
    );
    let version = reg.plugins.first().map(|p| match &p.result {
        Ok(loaded) => loaded.api_version().to_string(),
        Err(e) => format!("{e:?}"),
    });
    assert_eq!(version.as_deref(), Some("2.3"));
    let clamp = reg.functions.get("math.CLAMP");
    assert_eq!(clamp.map(|f| f.is_scalar()), Some(true));
    let ints = |xs: &[i64]| xs.iter().map(|x| Scalar::Int(*x)).collect::<Vec<_>>();
    let clamped = clamp.map(|f| f.call_scalars(&ints(&[150, 0, 100]), 9));
    assert_eq!(clamped, Some(Ok(Scalar::Int(100))));
    let pow = reg.functions.get("math.POW");
    let negative = pow.map(|f| f.call_scalars(&ints(&[2, -1]), 9).map_err(|d| d.code));
    assert_eq!(negative, Some(Err("out_of_domain".into())));
    let run = |a: i64| run_with(&reg, "(call math.POW (const 2) (var a))", a);
    assert_eq!(run(10), Ok(Literal::Int(1024)));
    assert_eq!(run(-1), Err(("out_of_domain".into(), Some("S1".into()))));
    // A function of arrays is no scalar one, and crosses as values.
    let min = reg.functions.get("math.MIN");
    assert_eq!(min.map(|f| f.is_scalar()), Some(false));
}

/// Runs `RETURN EXPR` with the int argument `a` on the interpreter, with
/// the functions of `reg`: the value, or the error's code and step.
fn run_with(reg: &Registry, expr: &str, a: i64) -> Result<Literal, (String, Option<String>)> {
    use isu_host::executor::{Executed, Executor, Interpreter};
    let text = format!(
        "FUNC:\n  NAME: f\n  ARGS: [a: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: {expr}\n  END\n"
    );
    let source = isu_host::Source::new("f.isu", text.as_str());
    let fe = isu_host::pipeline::check_with(&source, &reg.functions);
    let Some(program) = fe.valid_program() else {
        panic!("{expr} is not valid: {:?}", fe.diags);
    };
    let interpreter = Interpreter::new(reg.functions.clone());
    let loaded = match interpreter.load(program) {
        Ok(loaded) => loaded,
        Err(e) => panic!("{e:?}"),
    };
    match loaded.run(&serde_json::json!({ "a": a }), &ExecLimits::DEFAULT, None) {
        Executed::Value { value, .. } => Ok(value),
        Executed::Error(d) => Err((d.code.as_str().to_owned(), d.step.map(|s| s.to_string()))),
        other => panic!("{other:?}"),
    }
}

/// abi_stable keeps what it learnt of each library's layouts for the life
/// of the process: a pack of the current layout still loads and is called
/// after older ones did, and they after it.
#[test]
fn packs_of_every_minor_version_load_in_one_process() {
    let math = |reg: &Registry| {
        let gcd = reg.functions.get("math.GCD");
        gcd.map(|f| f.call(&[Literal::Int(12), Literal::Int(18)], 9))
    };
    let before = registry(
        "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"math\"\n",
    );
    assert_eq!(math(&before), Some(Ok(Literal::Int(6))));
    let versions = [
        "isu_test_pack_v20",
        "isu_test_pack_v21",
        "isu_test_pack_v22",
    ]
    .map(|krate| old_pack(krate).0);
    assert_eq!(versions, ["2.0", "2.1", "2.2"]);
    let after = registry(
        "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"math\"\n",
    );
    assert_eq!(math(&after), Some(Ok(Literal::Int(6))));
    assert_eq!(math(&before), Some(Ok(Literal::Int(6))));
}

#[test]
fn a_disabled_pack_is_known_with_how_to_enable_it() {
    let lib = built::library("isu_pack_text");
    let layer = |layer: Layer, file: &str, text: &str| {
        let place = Place::File(PathBuf::from(file));
        match manifest::parse(&place, layer, text) {
            Ok(m) => LayerStatus {
                layer,
                place,
                state: State::Read(m),
            },
            Err(e) => panic!("manifest: {e}"),
        }
    };
    let lower = format!(
        "[[plugin]]\nname = \"text\"\nkind = \"pack\"\nfile = \"{}\"\nnamespace = \"text\"\n",
        lib.display()
    );
    let reg = Registry::load_layers(
        vec![
            layer(Layer::User, "/nowhere/user.toml", &lower),
            layer(
                Layer::Project,
                "/nowhere/isu-plugins.toml",
                "disable = [\"text\"]\n",
            ),
        ],
        &[PluginKind::Pack],
    );
    assert!(!reg.functions.has_namespace("text"));
    assert_eq!(
        reg.functions.unavailable("text"),
        Some("the pack `text` is disabled by line 1 of /nowhere/isu-plugins.toml (project): take `text` out of that `disable` list to enable it")
    );
}

#[test]
fn an_unknown_target_names_the_known_ones() {
    let reg = registry(&backend_entry("toy", "isu_backend_toy"));
    let err = reg.backend("cobol").err().unwrap_or_default();
    assert!(err.contains("no backend serves target `cobol`"), "{err}");
    assert!(err.contains("the plugins serve toy"), "{err}");
    let none = Registry::default().backend("toy").err().unwrap_or_default();
    assert!(none.contains("isu finds no plugins"), "{none}");
    assert!(
        none.contains("fix: use an isu with its plugins beside it"),
        "{none}"
    );
}

#[test]
fn the_plugins_report_shows_what_loaded_and_what_was_refused() {
    let text = backend_entry("toy", "isu_backend_toy")
        + &backend_entry("skewed", "isu_test_layout")
        + "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"math\"\n";
    let reg = registry(&text);
    let json = isu_host::cli::plugins::report(&reg, false);
    assert_eq!(json["ok"], false);
    assert_eq!(json["layers"][0]["layer"], "--plugins");
    assert_eq!(json["layers"][0]["manifest"], "/nowhere/isu-plugins.toml");
    let toy = &json["plugins"][0];
    assert_eq!(
        (toy["name"].as_str(), toy["loaded"].as_bool()),
        (Some("toy"), Some(true))
    );
    assert_eq!(
        (toy["status"].as_str(), toy["layer"].as_str()),
        (Some("loaded"), Some("--plugins"))
    );
    assert_eq!(toy["api_version"], "2.3");
    assert_eq!(toy["targets"], serde_json::json!(["toy"]));
    assert_eq!(toy["iir"], serde_json::json!([IIR_FORMAT]));
    assert_eq!(toy["execute"]["artifact"], "iir-json");
    assert_eq!(
        toy["features"]["version"],
        isu_plugin_api::FEATURE_SET_VERSION
    );
    assert!(toy["lacks"]
        .as_array()
        .is_some_and(|l| l.iter().any(|f| f == "string")));
    let skewed = &json["plugins"][1];
    assert_eq!(skewed["error"]["code"], "layout_mismatch");
    assert_eq!(skewed["status"], "refused");
    assert!(
        skewed["error"].get("details").is_none(),
        "details only with --verbose"
    );
    let verbose = isu_host::cli::plugins::report(&reg, true);
    assert!(verbose["plugins"][1]["error"]["details"].is_string());
    let math = &json["plugins"][2];
    assert_eq!(math["functions"][0]["name"], "math.GCD");
    assert_eq!(math["functions"][0]["signature"], "(int, int) -> int");

    let human = isu_host::cli::plugins::human(&reg, false);
    assert!(
        human.contains("\n  --plugins  /nowhere/isu-plugins.toml\nplugins:\n"),
        "{human}"
    );
    assert!(
        human.contains("  toy (backend, --plugins, line 1): ok, version 0.1.0, plugin API 2.3\n"),
        "{human}"
    );
    assert!(
        human.contains("  skewed (backend, --plugins, line 6): refused (layout_mismatch)\n"),
        "{human}"
    );
    assert!(
        human.contains("      fix: check that the manifest's `kind` is right"),
        "{human}"
    );
    assert!(
        human.contains("(--verbose shows abi_stable's full report)"),
        "{human}"
    );
    assert!(human.contains("      math.ISQRT (int) -> int\n"), "{human}");
    let long = isu_host::cli::plugins::human(&reg, true);
    assert!(long.lines().count() > human.lines().count() + 50);
}

/// `g(a: int) -> int`: `S1: RETURN (call math.GCD (var a) (const 6))`.
fn gcd_program() -> Program {
    let mut p = inc_program();
    if let Node::Return { expr } = &mut p.body.steps[0].node {
        let var = Expr {
            span: Span::default(),
            ty: Some(Type::Int),
            node: ExprNode::Var { name: "a".into() },
        };
        let six = Expr {
            node: ExprNode::Const {
                value: Literal::Int(6),
            },
            ..var.clone()
        };
        expr.node = ExprNode::Call {
            func: "math.GCD".into(),
            args: vec![var, six],
        };
    }
    p
}

#[test]
fn a_pack_function_without_a_lowering_for_the_target_is_unsupported_there() {
    use isu_host::plugins::target::{build, BuildError};
    let text = backend_entry("toy", "isu_backend_toy")
        + "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"math\"\n";
    let reg = registry(&text);
    let built = build(&reg, &gcd_program(), options("toy"));
    assert!(
        built.as_ref().is_err_and(BuildError::is_unsupported),
        "{built:?}"
    );
    match built {
        Err(BuildError::Backend(fs)) => {
            let d = &fs[0].diagnostic;
            assert_eq!(
                (d.code.as_str(), d.message.as_str()),
                (
                    "unsupported_feature",
                    "the pack function math.GCD has no lowering for target `toy`"
                )
            );
            assert_eq!(
                fs[0].to_string(),
                "unsupported on target `toy`: the pack function math.GCD has no lowering for target `toy` [unsupported_feature]\n  hint: the `math` pack (version 0.1.0) has none for `toy`, and the `toy` backend carries none for it (`BackendInfo::lowerings`)"
            );
        }
        other => panic!("{other:?}"),
    }
    let (_, toy) = reg.backend("toy").unwrap_or_else(|e| panic!("{e}"));
    let python = reg
        .functions
        .lowerings(&gcd_program(), "python", &toy.info());
    let python = python.unwrap_or_default();
    assert_eq!(python.len(), 1);
    assert_eq!(
        (python[0].function.as_str(), python[0].target.as_str()),
        ("math.GCD", "python")
    );
    assert!(python[0].source.starts_with("def math__GCD(a, b):"));
    let built = build(&reg, &inc_program(), options("toy")).map(|a| a.len());
    assert!(matches!(built, Ok(1)), "{built:?}");
    let wasm = CompileOptions {
        emit: vec!["wasm".into()],
        ..options("toy")
    };
    match build(&reg, &inc_program(), wasm) {
        Err(BuildError::Backend(fs)) => {
            assert_eq!(fs[0].diagnostic.code, "unsupported_emit");
        }
        other => panic!("{other:?}"),
    }
    match build(&reg, &inc_program(), options("nope")) {
        Err(BuildError::NoBackend(m)) => assert!(m.contains("the plugins serve toy"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_python_backend_runs_across_the_boundary_with_pack_lowerings() {
    use isu_host::plugins::target::build;
    let text = backend_entry("python", "isu_backend_python")
        + "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"@isu_pack_math\"\nnamespace = \"math\"\n";
    let reg = registry(&text);
    assert!(reg.errors().is_empty(), "{:?}", reg.errors());
    let (_, python) = reg.backend("python").unwrap_or_else(|e| panic!("{e}"));
    let artifacts =
        build(&reg, &gcd_program(), options("python")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(artifacts[0].kind, "python");
    assert!(String::from_utf8_lossy(&artifacts[0].bytes).contains("def math__GCD(a, b):"));
    assert_eq!(
        python.execute(&artifacts, &args(-15), &run_options()),
        Ok(Literal::Int(3))
    );
    let artifacts =
        build(&reg, &inc_program(), options("python")).unwrap_or_else(|e| panic!("{e}"));
    let err = python
        .execute(&artifacts, &args(i64::MAX), &run_options())
        .err();
    let err = err.map(|d| (d.code, d.step));
    assert_eq!(err, Some(("int_overflow".into(), Some("S1".into()))));
}

#[test]
fn a_refused_backend_does_not_hide_a_working_one() {
    let text =
        backend_entry("ghost", "isu_test_old_abi") + &backend_entry("toy", "isu_backend_toy");
    let reg = registry(&text);
    assert!(reg.backend("toy").is_ok());
    let err = reg.backend("ghost").err().unwrap_or_default();
    assert!(err.starts_with("plugin `ghost` refused:"), "{err}");
    let err = reg.backend("cobol").err().unwrap_or_default();
    assert!(
        err.ends_with("the plugins serve toy (refused, see `isu plugins`: ghost)"),
        "{err}"
    );
}

/// A struct program: `TYPES: [point = {x: int, y: int}]`, returning a point.
const STRUCT_PROGRAM: &str = "FUNC:\n  NAME: origin\n  ARGS: []\n  RETURNS: point\nTYPES: [point = {x: int, y: int}]\nSTATE: []\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (struct point (x (const 0)) (y (const 0)))\n  END\n";

#[test]
fn a_plugin_written_before_structs_is_refused_struct_programs_only() {
    // The fixture is a backend as built before structs: plugin API 2.1,
    // reading `isu-iir/0.1`, feature vocabulary 4; its reader fails on any
    // key or node IIR 0.1 lacks, so the host must never send it one.
    let reg = registry(&backend_entry("v01", "isu_test_iir_v01"));
    let (_, old) = reg.backend("v01").unwrap_or_else(|e| panic!("{e}"));
    assert!(!old.info().features.supports("struct"));
    let fe = isu_host::pipeline::check(&isu_host::Source::new("origin.isu", STRUCT_PROGRAM));
    let program = fe
        .valid_program()
        .unwrap_or_else(|| panic!("{:?}", fe.diags))
        .clone();
    let refused = isu_host::plugins::target::build(&reg, &program, options("v01"));
    match refused {
        Err(isu_host::plugins::target::BuildError::Backend(fs)) => {
            assert_eq!(fs[0].diagnostic.code, "unsupported_feature");
            assert!(fs[0].diagnostic.message.contains("struct"), "{:?}", fs[0]);
        }
        other => panic!("expected unsupported_feature, got {other:?}"),
    }
    // A program without structs reaches it in a form the 0.1 reader takes.
    let built = isu_host::plugins::target::build(&reg, &inc_program(), options("v01"));
    let artifacts = built.unwrap_or_else(|e| panic!("{e}"));
    let sent: serde_json::Value =
        serde_json::from_slice(&artifacts[0].bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!(sent.get("types").is_none(), "{sent}");
    assert_eq!(sent["func"]["name"]["name"], "inc");
}
