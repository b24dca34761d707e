//! A pack call in the interpreter beside a standard function of similar
//! work, in the same run: a loop of N rounds whose body clamps the round's
//! number to 0..100, once with the standard functions
//! (`MIN(MAX(i, 0), 100)`), once with `math.CLAMP` linked into the process
//! (`isu_packs`, no plugin boundary), and once with `math.CLAMP` from the
//! plugin library `libisu_pack_math` through its abi_stable root module, as
//! `isu run` calls it. Prints the time per round of each and the ratios to
//! the standard functions; no assertion on time.
//!
//! Run: `cargo build --release --workspace` (which builds the plugin
//! library beside the bench) then `cargo bench -p isu_host --bench
//! pack_call`; without the library the third line says so and is left out.

use isu_host::executor::{Executed, Executor, Interpreter};
use isu_host::functions::Functions;
use isu_host::{pipeline, Source};
use isu_plugin_api::{ExecLimits, Program};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

const ROUNDS: i64 = 1_000_000;

fn program(clamp: &str, packs: &Functions) -> Option<Program> {
    let text = format!(
        "FUNC:\n  NAME: clamp_loop\n  ARGS: [n: int]\n  RETURNS: int\n\
         STATE: [acc: int = (const 0)]\nLOCAL: [i: int]\nSTEPS:\n  SEQ: BEGIN\n\
         \x20   S1: LOOP\n      ITER: (range i (const 0) (var n) (const 1))\n      BODY: BEGIN\n\
         \x20       S1_1: ASSIGN\n          TARGET: acc\n          EXPR: (add (var acc) {clamp})\n\
         \x20     END\n    S2: RETURN\n      EXPR: (var acc)\n  END\n"
    );
    let fe = pipeline::check_with(&Source::new("clamp_loop.isu", text.as_str()), packs);
    fe.valid_program().cloned()
}

/// The median time of 5 runs of `program` with `n = ROUNDS`.
fn time(program: &Program, packs: &Functions) -> Option<Duration> {
    let interp = Interpreter::new(packs.clone());
    let loaded = interp.load(program).ok()?;
    let args = serde_json::json!({ "n": ROUNDS });
    let limits = ExecLimits {
        max_steps: 1 << 40,
        ..ExecLimits::DEFAULT
    };
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let out = loaded.run(&args, &limits, None);
        times.push(t.elapsed());
        if !matches!(out, Executed::Value { .. }) {
            eprintln!("the run failed: {out:?}");
            return None;
        }
    }
    times.sort();
    Some(times[2])
}

/// `libisu_pack_math.so` beside the bench's folder (`target/release`).
fn plugin_library() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile = exe.parent()?.parent()?;
    let name = format!(
        "{}isu_pack_math{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let path = profile.join(name);
    path.is_file().then_some(path)
}

fn main() {
    let std_fns = Functions::default();
    let mut linked = Functions::default();
    linked.add_local(Arc::new(isu_packs::math::MATH));
    let per_round = |d: Duration| d.as_nanos() as f64 / ROUNDS as f64;
    let base = program(
        "(call MIN (call MAX (var i) (const 0)) (const 100))",
        &std_fns,
    )
    .and_then(|p| time(&p, &std_fns));
    let Some(base) = base else {
        eprintln!("the standard-function program did not run");
        return;
    };
    println!(
        "standard MIN(MAX(i, 0), 100): {:.1} ns/round",
        per_round(base)
    );
    let clamp = "(call math.CLAMP (var i) (const 0) (const 100))";
    let report =
        |what: &str, packs: &Functions| match program(clamp, packs).and_then(|p| time(&p, packs)) {
            Some(t) => println!(
                "{what}: {:.1} ns/round, {:.2}x the standard functions",
                per_round(t),
                t.as_secs_f64() / base.as_secs_f64()
            ),
            None => println!("{what}: did not run"),
        };
    report("math.CLAMP linked in", &linked);
    match plugin_library() {
        Some(path) => match isu_plugin_api::abi::load_pack(&path) {
            Ok(pack) => {
                let mut plugin = Functions::default();
                plugin.add_local(Arc::new(pack));
                report("math.CLAMP through the plugin boundary", &plugin);
            }
            Err(e) => println!("{}: {e}", path.display()),
        },
        None => println!(
            "math.CLAMP through the plugin boundary: no libisu_pack_math beside the bench (`cargo build --release --workspace` first)"
        ),
    }
}
