//! Pack functions on the LLVM backend (`spec/plugin-abi.md`, "Lowerings for
//! LLVM"): the shipped packs' lowerings against the reference interpreter on
//! many generated arguments (non-ASCII strings, the edges of 64-bit ints,
//! empty strings and arrays, tight limits), each function's program built
//! once into an executable and run as a subprocess; a pack's error as the
//! executable reports it; and every malformed lowering refused with a
//! diagnostic naming the function (`tests/bad_lowerings/`, one fixture each,
//! whose first line says what the refusal must say).
#![cfg(isu_llvm)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::func;
use isu_backend_llvm::native::Scratch;
use isu_backend_llvm::LlvmBackend;
use isu_host::functions::Functions;
use isu_host::interp::{self, RunOptions};
use isu_host::Source;
use isu_plugin_api::{
    Backend, BackendCode, CompileOptions, ExecLimits, Lowering, Program, Signature, Type,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn packs() -> Functions {
    Functions::linked(isu_packs::SHIPPED)
}

fn checked(text: &str, packs: &Functions) -> Program {
    let fe = isu_host::pipeline::check_with(&Source::new("packs.isu", text), packs);
    match fe.valid_program() {
        Some(p) => p.clone(),
        None => panic!("not valid: {:?}\n{text}", fe.diags),
    }
}

/// The program `f` that returns `ns.NAME(a0, a1, ...)` of its arguments,
/// through a LOCAL (so that the result is stored, then returned).
fn caller(full: &str, sig: &Signature) -> String {
    let args: Vec<String> = sig
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("a{i}: {t}"))
        .collect();
    let vars: Vec<String> = (0..sig.params.len())
        .map(|i| format!("(var a{i})"))
        .collect();
    func(
        &args.join(", "),
        &sig.ret.to_string(),
        &format!("r: {}", sig.ret),
        &format!(
            "    ASSIGN:\n      TARGET: r\n      EXPR: (call {full} {})\n    RETURN:\n      EXPR: (var r)\n",
            vars.join(" ")
        ),
    )
}

/// Builds `program` with the shipped packs' lowerings (as `isu build` gives
/// them) into an executable in `dir`.
fn build_exe(dir: &Scratch, program: &Program, packs: &Functions) -> PathBuf {
    let opts = CompileOptions {
        target: "llvm".into(),
        ..CompileOptions::default()
    };
    let backend = LlvmBackend::new();
    let arts = isu_host::plugins::target::compile_with(packs, &backend, program, opts)
        .unwrap_or_else(|e| panic!("{e}"));
    let exe = arts.iter().find(|a| a.kind == "exe").expect("an exe");
    let path = dir.path(&exe.file_name);
    std::fs::write(&path, &exe.bytes).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// The executable's outcome on `args` within `limits`: the result's JSON,
/// or `error CODE at STEP`.
fn native(exe: &Path, args: &str, limits: ExecLimits, human: bool) -> (String, String) {
    let mut child = isu_backend_llvm::exec::spawn(
        Command::new(exe)
            .args(["--format", if human { "human" } else { "json" }])
            .args(["--max-steps", &limits.max_steps.to_string()])
            .args(["--max-size", &limits.max_size.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .unwrap();
    let _ = child.stdin.take().unwrap().write_all(args.as_bytes());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if human {
        return (String::from_utf8_lossy(&out.stdout).into_owned(), stderr);
    }
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{stderr}", String::from_utf8_lossy(&out.stdout)));
    let shown = if report["ok"] == serde_json::Value::Bool(true) {
        report["value"].to_string()
    } else {
        let d = &report["diagnostics"][0];
        format!(
            "error {} at {}",
            d["code"].as_str().unwrap_or("?"),
            d["step"].as_str().unwrap_or("-")
        )
    };
    (shown, d_message(&report))
}

fn d_message(report: &serde_json::Value) -> String {
    report["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The interpreter's outcome, in the same form.
fn oracle(p: &Program, args: &str, limits: ExecLimits, packs: &Functions) -> String {
    let v: serde_json::Value = serde_json::from_str(args).unwrap();
    match interp::run_with(p, &v, &RunOptions::from(limits), None, packs) {
        Ok(v) => serde_json::to_value(&v).unwrap().to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code.as_str(),
            d.step.map_or("-".to_owned(), |s| s.to_string())
        ),
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

const INTS: &[i64] = &[
    0,
    1,
    -1,
    2,
    -2,
    3,
    7,
    12,
    -18,
    62,
    63,
    64,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    i64::MIN + 1,
    4,
    15,
    16,
    3_037_000_499,
    3_037_000_500,
    9_223_372_030_926_249_000,
    9_223_372_030_926_249_001,
    9_223_372_030_926_249_002,
    1 << 32,
    -(1 << 32),
    4_611_686_018_427_387_904,
    65,
    233,
    127,
    128,
    0x7FF,
    0x800,
    0xD7FF,
    0xD800,
    0xDFFF,
    0xE000,
    0xFFFF,
    0x1_0000,
    0x10_FFFF,
    0x11_0000,
    128_512,
];

const STRINGS: &[&str] = &[
    "",
    "a",
    "ab",
    "aaa",
    "abcab",
    "é",
    "héllo",
    "ééabab",
    "😀",
    "a😀b",
    "日本語",
    "0123",
    "12a",
    "٣",
    "abcXYZ",
    "Zz",
    "·",
    "-",
    " ",
    "aé😀日",
    "@[`{",
];

/// Pieces random strings are made of: ASCII, 2-, 3- and 4-byte characters.
const PIECES: &[&str] = &["a", "b", "é", "😀", "日", "0", "9", " ", "ab"];

/// The ints at the edges of what the math pack computes.
const EXTREMES: [i64; 5] = [0, 1, -1, i64::MIN, i64::MAX];

/// Every tuple of `n` of the [`EXTREMES`].
fn tuples(n: usize) -> Vec<Vec<i64>> {
    (0..n).fold(vec![Vec::new()], |acc, _| {
        acc.iter()
            .flat_map(|t| {
                EXTREMES.iter().map(move |x| {
                    let mut t = t.clone();
                    t.push(*x);
                    t
                })
            })
            .collect()
    })
}

fn int(r: &mut Rng) -> i64 {
    match r.below(4) {
        0 => *r.pick(INTS),
        1 => r.next() as i64,
        _ => r.below(12) as i64 - 3,
    }
}

fn string(r: &mut Rng) -> String {
    if r.below(2) == 0 {
        return (*r.pick(STRINGS)).to_owned();
    }
    (0..r.below(9)).map(|_| *r.pick(PIECES)).collect()
}

fn value(r: &mut Rng, t: &Type) -> serde_json::Value {
    match t {
        Type::Int => int(r).into(),
        Type::Bool => (r.below(2) == 0).into(),
        Type::String => string(r).into(),
        Type::Array(e) => (0..r.below(6)).map(|_| value(r, e)).collect(),
        Type::Map(..) | Type::Struct(_) | Type::Float => {
            panic!("no shipped pack function takes a map, a struct or a float")
        }
    }
}

#[test]
fn every_lowering_runs_as_the_interpreter_runs_the_pack() {
    let packs = packs();
    let dir = Scratch::new("packs-diff").unwrap();
    let tight = ExecLimits {
        max_steps: 12,
        max_size: 6,
        max_memory: ExecLimits::DEFAULT.max_memory,
    };
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    let mut differences = Vec::new();
    // What the runs came to: (function, result or error code) seen.
    let mut seen = std::collections::BTreeSet::new();
    for pack in isu_packs::SHIPPED {
        for f in pack.functions {
            let full = format!("{}.{}", pack.namespace, f.name);
            let sig = Signature::parse(f.signature).unwrap();
            let p = checked(&caller(&full, &sig), &packs);
            let exe = build_exe(&dir, &p, &packs);
            // Random arguments, under the default and tight limits; for a
            // function of ints only, every tuple of the extremes too.
            let mut inputs: Vec<(serde_json::Value, ExecLimits)> = (0..48)
                .map(|i| {
                    let args = sig
                        .params
                        .iter()
                        .enumerate()
                        .map(|(k, t)| (format!("a{k}"), value(&mut r, t)))
                        .collect();
                    let limits = if i % 3 == 2 { tight } else { common::LIMITS };
                    (serde_json::Value::Object(args), limits)
                })
                .collect();
            if sig.params.iter().all(|t| *t == Type::Int) {
                for tuple in tuples(sig.params.len()) {
                    let args = tuple
                        .into_iter()
                        .enumerate()
                        .map(|(k, n)| (format!("a{k}"), n.into()))
                        .collect();
                    inputs.push((serde_json::Value::Object(args), common::LIMITS));
                }
            }
            for (args, limits) in inputs {
                let args = args.to_string();
                let want = oracle(&p, &args, limits, &packs);
                let (got, _) = native(&exe, &args, limits, false);
                runs += 1;
                let kind = want
                    .strip_prefix("error ")
                    .and_then(|e| e.split(' ').next())
                    .unwrap_or("value");
                seen.insert((full.clone(), kind.to_owned()));
                if got != want {
                    differences.push(format!(
                        "{full} {args} (steps {}, size {}): llvm {got}, interpreter {want}",
                        limits.max_steps, limits.max_size
                    ));
                }
            }
        }
    }
    assert!(runs == 18 * 48 + 3 * 25 + 2 * 5 + 125, "{runs} runs");
    // The inputs reach every function's values and every error a pack
    // function or its call can stop with.
    for pack in isu_packs::SHIPPED {
        for f in pack.functions {
            let full = format!("{}.{}", pack.namespace, f.name);
            assert!(
                seen.contains(&(full.clone(), "value".into())),
                "{full}: {seen:?}"
            );
            for e in f.errors {
                let code = e.split(':').next().unwrap_or_default();
                assert!(
                    seen.contains(&(full.clone(), code.into())),
                    "{full} never {code}"
                );
            }
        }
    }
    for code in ["step_limit", "size_limit"] {
        assert!(
            seen.iter().any(|(_, k)| k == code),
            "no run stopped with {code}"
        );
    }
    assert!(
        differences.is_empty(),
        "{} of {runs} runs differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

#[test]
fn a_pack_error_names_the_function_and_the_calling_step() {
    let packs = packs();
    let dir = Scratch::new("packs-error").unwrap();
    let sig = Signature::parse("(int, int) -> int").unwrap();
    let p = checked(&caller("math.POW", &sig), &packs);
    let exe = build_exe(&dir, &p, &packs);
    let (shown, message) = native(&exe, r#"{"a0": 3, "a1": -1}"#, common::LIMITS, false);
    assert_eq!(shown, "error out_of_domain at S1");
    assert!(message.starts_with("math.POW: "), "{message}");
    let (_, stderr) = native(&exe, r#"{"a0": 3, "a1": 40}"#, common::LIMITS, true);
    assert!(
        stderr.starts_with(
            "error[int_overflow]: RuntimeError: math.POW: the result does not fit in 64 bits"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("in step S1"), "{stderr}");
}

/// Compiles the caller of math.GCD with `source` as its llvm lowering.
/// The module's optimized IR (`--emit ll`), or the one diagnostic.
fn compile_gcd_with(source: &str) -> Result<String, isu_plugin_api::PluginDiagnostic> {
    let packs = packs();
    let sig = Signature::parse("(int, int) -> int").unwrap();
    let p = checked(&caller("math.GCD", &sig), &packs);
    let opts = CompileOptions {
        target: "llvm".into(),
        emit: vec!["ll".into()],
        lowerings: vec![Lowering {
            function: "math.GCD".into(),
            target: "llvm".into(),
            source: source.to_owned(),
        }],
        ..CompileOptions::default()
    };
    match LlvmBackend::new().compile(&p, &opts) {
        Ok(arts) => Ok(String::from_utf8_lossy(&arts[0].bytes).into_owned()),
        Err(mut ds) => {
            assert_eq!(ds.len(), 1, "{ds:?}");
            Err(ds.remove(0))
        }
    }
}

#[test]
fn every_malformed_lowering_is_refused_naming_the_function() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_lowerings");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 15, "{} fixtures", files.len());
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let want = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("; refused: "))
            .unwrap_or_else(|| panic!("{} lacks its `; refused:` line", file.display()));
        let d = match compile_gcd_with(&source) {
            Ok(_) => panic!("{} was accepted", file.display()),
            Err(d) => d,
        };
        assert_eq!(
            d.code,
            BackendCode::PluginBadOutput.as_str(),
            "{}: {d:?}",
            file.display()
        );
        assert!(
            d.message
                .starts_with("the llvm lowering of the pack function math.GCD "),
            "{}: {}",
            file.display(),
            d.message
        );
        assert!(
            d.message.contains(want),
            "{}: {}",
            file.display(),
            d.message
        );
    }
}

#[test]
fn the_shipped_lowering_is_accepted_and_a_missing_one_is_unsupported() {
    let gcd = isu_plugin_api::Pack::lower(&isu_packs::math::MATH, "GCD", "llvm").unwrap();
    let ll = compile_gcd_with(&gcd).unwrap();
    // Linked before the optimizer, internal, and inlined into isu_run: no
    // function of its own is left, and the steps keep their lines.
    assert!(!ll.contains("@math.GCD"), "{ll}");
    assert!(
        ll.contains("define void @isu_run(") && ll.contains("!DILocation(line: "),
        "{ll}"
    );
    let packs = packs();
    let sig = Signature::parse("(int, int) -> int").unwrap();
    let p = checked(&caller("math.GCD", &sig), &packs);
    let r = LlvmBackend::new().compile(&p, &CompileOptions::default());
    let Err(ds) = r else {
        panic!("compiled without the lowering");
    };
    assert_eq!(ds[0].code, BackendCode::UnsupportedFeature.as_str());
    assert!(
        ds[0]
            .message
            .contains("no lowering of the pack function math.GCD"),
        "{}",
        ds[0].message
    );
}
