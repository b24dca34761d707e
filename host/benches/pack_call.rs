//! A pack call in the interpreter beside a standard function of similar
//! work, in the same run: a loop of N rounds whose body clamps the round's
//! number to 0..100, once with the standard functions
//! (`MIN(MAX(i, 0), 100)`), once with `math.CLAMP` linked into the process
//! (`isu_packs`, no plugin boundary), and once with `math.CLAMP` from the
//! plugin library `libisu_pack_math` through its abi_stable root module, as
//! `isu run` calls it. The three take turns, round after round (so that a
//! change of the machine's load falls on all of them alike), each timed by
//! the CPU time of the thread that runs it (the wall clock off Linux); prints the
//! median time per loop round of each, and the median over the rounds of
//! each one's ratio to the standard functions of the same round, with the
//! least and greatest in brackets; no assertion on time.
//!
//! Run: `cargo build --release --workspace` (which builds the plugin
//! library beside the bench) then `cargo bench -p isu_host --bench
//! pack_call`; without the library the third line says so and is left out.

use isu_host::executor::{Executed, Executor, Interpreter, Loaded};
use isu_host::functions::Functions;
use isu_host::{pipeline, Source};
use isu_plugin_api::{ExecLimits, Program};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Long enough that the clock's steps (the scheduler's tick, a few
/// milliseconds, where the CPU time is read) are about 1% of a run.
const ROUNDS: i64 = 8_000_000;
/// Turns each variant takes.
const TURNS: usize = 11;

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

/// The CPU time this thread has run, in nanoseconds, where the system
/// tells it (Linux: `/proc/thread-self/schedstat`, which moves in steps of
/// the scheduler's tick while the thread runs): time the thread waited
/// while other processes ran does not count, so a busy machine changes the
/// figures less than it changes the wall clock.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Nanoseconds a loop round of one run (of this thread's CPU time, else of
/// the wall clock), or why the run failed.
fn time(loaded: &dyn Loaded) -> Result<f64, String> {
    let args = serde_json::json!({ "n": ROUNDS });
    let limits = ExecLimits {
        max_steps: 1 << 40,
        ..ExecLimits::DEFAULT
    };
    let (cpu, wall) = (thread_cpu_ns(), Instant::now());
    let out = loaded.run(&args, &limits, None);
    let took = match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => b.saturating_sub(a) as f64,
        _ => wall.elapsed().as_nanos() as f64,
    };
    match out {
        Executed::Value { .. } => Ok(took / ROUNDS as f64),
        other => Err(format!("the run failed: {other:?}")),
    }
}

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

fn median(mut xs: Vec<f64>) -> (f64, f64, f64) {
    xs.sort_by(f64::total_cmp);
    (xs[xs.len() / 2], xs[0], xs[xs.len() - 1])
}

fn main() {
    let std_fns = Functions::default();
    let mut linked = Functions::default();
    linked.add_local(Arc::new(isu_packs::math::MATH));
    let clamp = "(call math.CLAMP (var i) (const 0) (const 100))";
    let mut variants: Vec<(&str, &str, Functions)> = vec![
        (
            "standard MIN(MAX(i, 0), 100)",
            "(call MIN (call MAX (var i) (const 0)) (const 100))",
            std_fns,
        ),
        ("math.CLAMP linked in", clamp, linked),
    ];
    const PLUGIN: &str = "math.CLAMP through the plugin boundary";
    match plugin_library() {
        Some(path) => match isu_plugin_api::abi::load_pack(&path) {
            Ok(pack) => {
                let mut plugin = Functions::default();
                plugin.add_local(Arc::new(pack));
                variants.push((PLUGIN, clamp, plugin));
            }
            Err(e) => println!("{PLUGIN}: {}: {e}", path.display()),
        },
        None => println!(
            "{PLUGIN}: no libisu_pack_math beside the bench (`cargo build --release --workspace` first)"
        ),
    }
    let interps: Vec<(&str, Option<Program>, Interpreter)> = variants
        .into_iter()
        .map(|(what, call, packs)| (what, program(call, &packs), Interpreter::new(packs)))
        .collect();
    let mut loaded = Vec::new();
    for (what, program, interp) in &interps {
        match program.as_ref().map(|p| interp.load(p)) {
            Some(Ok(l)) => loaded.push((*what, l)),
            _ => {
                println!("{what}: the program did not load");
                return;
            }
        }
    }
    let mut times = vec![Vec::new(); loaded.len()];
    for turn in 0..TURNS {
        // The order rotates from turn to turn.
        for k in 0..loaded.len() {
            let i = (turn + k) % loaded.len();
            match time(loaded[i].1.as_ref()) {
                Ok(ns) => times[i].push(ns),
                Err(e) => {
                    println!("{}: {e}", loaded[i].0);
                    return;
                }
            }
        }
    }
    let (base, _, _) = median(times[0].clone());
    println!("{}: {base:.1} ns/round", loaded[0].0);
    for (i, (what, _)) in loaded.iter().enumerate().skip(1) {
        let (ns, _, _) = median(times[i].clone());
        let ratios = times[i].iter().zip(&times[0]).map(|(t, b)| t / b).collect();
        let (r, lo, hi) = median(ratios);
        println!("{what}: {ns:.1} ns/round, {r:.2}x the standard functions ({lo:.2}-{hi:.2} over {TURNS} turns)");
    }
}
