//! Front-end throughput: parse + canonicalize + validate of generated programs
//! of about 1, 10 and 20 MB, beside serde_json deserializing the same
//! program's IIR JSON into the IIR types, in the same run; and what `isu
//! parse` does (parse + canonicalize, then the IIR JSON written out).
//!
//! Run: `cargo bench -p isu_host --bench front_end` (add `-- --quick` for one
//! round). Prints MB/s of each side, the ratios, and how the time grows with
//! the input (linear is 10x for 10x); no assertion on time. Memory is
//! measured outside, on the binary: `/usr/bin/time -v isu check BIG.isu`.

use isu_host::{pipeline, Source};
use isu_plugin_api::Program;
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "common/generated.rs"]
mod generated;

/// A valid program of at least `bytes` bytes.
fn program(bytes: usize) -> String {
    generated::program(|s| s.len() >= bytes)
}

/// The median time of `rounds` runs of `f`.
fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!("front end (parse + canonicalize + validate) vs serde_json (IIR JSON -> IIR types)");
    println!(
        "{:>8} {:>10} {:>12} {:>10} {:>12} {:>12} {:>10}",
        "program", "isu bytes", "front end", "MB/s", "json bytes", "serde_json", "time ratio"
    );
    let mut front_times = Vec::new();
    let mut parse_times = Vec::new();
    for (label, size) in [
        ("1 MB", 1_000_000),
        ("10 MB", 10_000_000),
        ("20 MB", 20_000_000),
    ] {
        let text = program(size);
        let src = Source::new("generated.isu", text.clone());
        let fe = pipeline::check(&src);
        if let Some(d) = fe.diags.iter().find(|d| d.is_error()) {
            eprintln!("the generated program is invalid: {d:?}");
            std::process::exit(1);
        }
        let Some(program) = fe.program else {
            eprintln!("the generated program did not parse");
            std::process::exit(1);
        };
        let json = serde_json::to_string(&program).unwrap_or_default();
        let rounds = if quick {
            1
        } else if size > 15_000_000 {
            3
        } else if size > 5_000_000 {
            5
        } else {
            15
        };
        let front = median(rounds, || {
            let src = Source::new("generated.isu", black_box(text.as_str()));
            black_box(pipeline::check(&src));
        });
        let parse_only = median(rounds, || {
            let src = Source::new("generated.isu", black_box(text.as_str()));
            black_box(isu_host::syntax::parse(&src));
        });
        let canon_only = median(rounds, || {
            let src = Source::new("generated.isu", black_box(text.as_str()));
            black_box(pipeline::parse_canonical(&src));
        });
        eprintln!(
            "  {label}: parse {:.1}ms, + canonicalize {:.1}ms, + validate {:.1}ms",
            parse_only.as_secs_f64() * 1e3,
            (canon_only.saturating_sub(parse_only)).as_secs_f64() * 1e3,
            (front.saturating_sub(canon_only)).as_secs_f64() * 1e3
        );
        // `isu parse`: the canonical IIR, written out as JSON.
        let parse_out = median(rounds, || {
            let src = Source::new("generated.isu", black_box(text.as_str()));
            let fe = pipeline::parse_canonical(&src);
            let written = serde_json::to_writer(std::io::sink(), &fe.program);
            black_box(written.is_ok());
        });
        eprintln!(
            "  {label}: isu parse (with the JSON written out) {:.1}ms",
            parse_out.as_secs_f64() * 1e3
        );
        parse_times.push((text.len(), parse_out));
        let serde = median(rounds, || {
            let p: Result<Program, _> = serde_json::from_str(black_box(&json));
            black_box(p.is_ok());
        });
        println!(
            "{:>8} {:>10} {:>10.1}ms {:>10.1} {:>12} {:>10.1}ms {:>10.2}",
            label,
            text.len(),
            front.as_secs_f64() * 1e3,
            mb_per_s(text.len(), front),
            json.len(),
            serde.as_secs_f64() * 1e3,
            front.as_secs_f64() / serde.as_secs_f64(),
        );
        front_times.push((text.len(), front));
    }
    for (what, times) in [("check", &front_times), ("parse", &parse_times)] {
        if let [(b1, t1), rest @ ..] = &times[..] {
            for (b, t) in rest {
                println!(
                    "scaling of {what}: {:.1}x the input took {:.2}x the time",
                    *b as f64 / *b1 as f64,
                    t.as_secs_f64() / t1.as_secs_f64()
                );
            }
        }
    }
    println!("time ratio = front end time / serde_json time (below 4.0 meets the 25% target)");
}
