//! `isu fuzz` as a user runs it: random programs on the interpreter and on
//! the backends of a project manifest (python with the `math` fixture pack,
//! toy, panicky), its reports, shards, the cases it writes, and its usage
//! errors. The plugin libraries are built by the test (`common::built`).

mod common;

use common::built::library as lib;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch folder of this test, emptied, with a project manifest listing
/// python, toy, panicky and the math pack.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-fuzz-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut text = String::new();
    for (name, krate) in [
        ("python", "isu_backend_python"),
        ("toy", "isu_backend_toy"),
        ("panicky", "isu_test_panicky"),
    ] {
        text.push_str(&format!(
            "[[plugin]]\nname = \"{name}\"\nkind = \"backend\"\nfile = {:?}\n\n",
            lib(krate).display().to_string()
        ));
    }
    text.push_str(&format!(
        "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = {:?}\nnamespace = \"math\"\n",
        lib("isu_pack_math").display().to_string()
    ));
    std::fs::write(dir.join("isu-plugins.toml"), text).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn isu(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isu"))
        .args(args)
        .current_dir(dir)
        .env_remove("ISU_PLUGINS")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn fuzzing_python_with_the_math_pack_finds_no_difference() {
    let dir = scratch("python");
    let o = isu(
        &dir,
        &[
            "fuzz",
            "--targets",
            "python",
            "--count",
            "40",
            "--seed",
            "3",
            "--format",
            "json",
        ],
    );
    let j = json(&o);
    assert_eq!(o.status.code(), Some(0), "{j:#}");
    assert_eq!(j["ok"], true);
    assert_eq!(j["programs"], 40);
    let t = &j["targets"][0];
    assert_eq!(t["target"], "python");
    assert!(t["compared"].as_u64().is_some_and(|n| n >= 30), "{t}");
    assert_eq!(t["failed"], 0);
    assert!(t["programs_per_second"].as_f64().is_some_and(|r| r > 0.0));
}

#[test]
fn shards_together_run_the_programs_of_the_whole_run() {
    let dir = scratch("shards");
    let run = |shard: Option<&str>| {
        let mut args = vec!["fuzz", "--targets", "toy", "--count", "30", "--seed", "9"];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        args.extend(["--format", "json"]);
        let o = isu(&dir, &args);
        assert_eq!(o.status.code(), Some(0), "{}", json(&o));
        json(&o)
    };
    let whole = run(None);
    let parts = [run(Some("0/2")), run(Some("1/2"))];
    assert_eq!(parts[0]["programs"], 15);
    assert_eq!(parts[0]["shard"], "0/2");
    let mut sum = std::collections::BTreeMap::<String, u64>::new();
    for p in &parts {
        for (k, v) in p["outcomes"].as_object().into_iter().flatten() {
            *sum.entry(k.clone()).or_default() += v.as_u64().unwrap_or(0);
        }
    }
    let whole_outcomes: std::collections::BTreeMap<String, u64> = whole["outcomes"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(sum, whole_outcomes);
    let compared = |j: &serde_json::Value| j["targets"][0]["compared"].as_u64().unwrap_or(0);
    assert_eq!(compared(&parts[0]) + compared(&parts[1]), compared(&whole));
    // The shards' reports merge into the whole run's.
    for (i, p) in parts.iter().enumerate() {
        std::fs::write(dir.join(format!("s{i}.json")), p.to_string()).unwrap();
    }
    let o = isu(
        &dir,
        &["fuzz", "--merge", "s1.json", "s0.json", "--format", "json"],
    );
    let merged = json(&o);
    assert_eq!(o.status.code(), Some(0), "{merged:#}");
    for key in [
        "seed", "count", "programs", "invalid", "outcomes", "findings",
    ] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    assert_eq!(merged["shard"], "0/1");
    assert_eq!(compared(&merged), compared(&whole));
    // One shard alone, or one twice, is not a run.
    let o = isu(&dir, &["fuzz", "--merge", "s0.json", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(json(&o).to_string().contains("shard 1/2 missing"));
    let o = isu(&dir, &["fuzz", "--merge", "s0.json", "s0.json", "s1.json"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `scripts/fuzz-shards.sh local`: every shard of a run here, then their
/// merge, with each difference written as a case.
#[test]
fn the_shard_script_runs_shards_and_merges_their_differences_into_cases() {
    let dir = scratch("script");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/fuzz-shards.sh");
    let o = Command::new("bash")
        .arg(&script)
        .args([
            "local",
            "--of",
            "2",
            "--parallel",
            "2",
            "--dir",
            "run",
            "--format",
            "json",
        ])
        .args([
            "--",
            "--targets",
            "panicky",
            "--count",
            "3",
            "--shrink-tries",
            "20",
        ])
        .current_dir(&dir)
        .env("ISU", env!("CARGO_BIN_EXE_isu"))
        .env_remove("ISU_PLUGINS")
        .env_remove("JOB_COMPLETION_INDEX")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .output()
        .unwrap();
    let j = json(&o);
    assert_eq!(o.status.code(), Some(6), "{j:#}");
    assert_eq!(j["programs"], 3, "{j:#}");
    assert_eq!(j["shard"], "0/1");
    let findings = j["findings"].as_array().map_or(0, Vec::len);
    assert!(findings >= 1, "{j:#}");
    let cases = std::fs::read_dir(dir.join("run/cases")).unwrap().count();
    assert_eq!(cases, findings);
    assert!(dir.join("run/shard-0-of-2.json").is_file());
    assert!(dir.join("run/report.json").is_file());
    // One shard by its index from a Kubernetes Indexed Job.
    let o = Command::new("bash")
        .arg(&script)
        .args([
            "shard",
            "--of",
            "2",
            "--dir",
            "one",
            "--",
            "--targets",
            "toy",
            "--count",
            "4",
        ])
        .current_dir(&dir)
        .env("ISU", env!("CARGO_BIN_EXE_isu"))
        .env("JOB_COMPLETION_INDEX", "1")
        .env_remove("ISU_PLUGINS")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(dir.join("one/shard-1-of-2.json")).unwrap();
    let shard: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(shard["shard"], "1/2");
    assert_eq!(shard["programs"], 2);
}

#[test]
fn each_difference_is_written_as_a_case_the_interpreter_passes() {
    let dir = scratch("out");
    let o = isu(
        &dir,
        &[
            "fuzz",
            "--targets",
            "panicky",
            "--count",
            "2",
            "--shrink-tries",
            "30",
            "--out",
            "found",
            "--format",
            "json",
        ],
    );
    let j = json(&o);
    assert_eq!(o.status.code(), Some(6), "{j:#}");
    assert_eq!(j["ok"], false);
    let files: Vec<&str> = j["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str())
        .collect();
    assert_eq!(files.len(), 2, "{j:#}");
    for f in &files {
        let text = std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(text.starts_with("; Found by `isu fuzz --seed 1`"), "{text}");
        assert!(
            text.contains("\n; run: ") && text.contains("\nSTEPS:"),
            "{text}"
        );
    }
    let o = isu(
        &dir,
        &[
            "conformance",
            "--cases",
            "found",
            "--target",
            "toy",
            "--format",
            "json",
        ],
    );
    let j = json(&o);
    let interpreter = &j["reports"][0];
    assert_eq!(interpreter["executor"], "interpreter");
    let ours: Vec<&serde_json::Value> = interpreter["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["case"].as_str().is_some_and(|c| c.starts_with("found/")))
        .collect();
    assert!(ours.is_empty(), "{ours:#?}");
    assert_eq!(j["folders"][0], "found");
}

#[test]
fn a_bad_shard_is_a_usage_error_and_an_unknown_target_exit_8() {
    let dir = scratch("usage");
    let o = isu(&dir, &["fuzz", "--shard", "2/2", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let j = json(&o);
    assert_eq!(j["diagnostics"][0]["code"], "invalid_usage", "{j:#}");
    let o = isu(
        &dir,
        &[
            "fuzz",
            "--targets",
            "nope",
            "--count",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(8));
    assert_eq!(json(&o)["ok"], false);
}
