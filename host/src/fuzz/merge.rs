//! The report of a run split over machines (`isu fuzz --shard I/N` on
//! each), made from the shards' reports (`isu fuzz --merge`): the same
//! counts, outcomes and findings as the unsharded run, whose findings are
//! every shard's, each already shrunk to a case by the shard that found it.

use super::{Report, Shard, TargetReport};

/// The whole run's report from the reports of its shards, each named (a file)
/// for the errors: every shard `I/N` of one seed and count, each once.
pub fn merge(parts: &[(String, Report)]) -> Result<Report, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no reports to merge".into());
    };
    let first_shard = shard_of(first_name, first)?;
    let mut seen: Vec<Option<&str>> = vec![None; usize::try_from(first_shard.of).unwrap_or(0)];
    for (name, report) in parts {
        let shard = shard_of(name, report)?;
        if (report.seed, report.count, shard.of) != (first.seed, first.count, first_shard.of) {
            return Err(format!(
                "{name} is shard {shard} of seed {} and {} programs, {first_name} shard {first_shard} of seed {} and {} programs: shards of one run only",
                report.seed, report.count, first.seed, first.count
            ));
        }
        let slot = usize::try_from(shard.index)
            .ok()
            .and_then(|i| seen.get_mut(i))
            .ok_or_else(|| format!("{name}: shard {shard} is out of range"))?;
        if let Some(other) = slot {
            return Err(format!("{other} and {name} are both shard {shard}"));
        }
        *slot = Some(name);
        let expected = shard.programs(report.count).count() as u64;
        if report.programs != expected {
            return Err(format!(
                "{name} ran {} programs of shard {shard}, which has {expected}: a shard stopped early",
                report.programs
            ));
        }
    }
    let absent: Vec<String> = (0..first_shard.of)
        .filter(|&i| seen.get(i as usize).is_some_and(Option::is_none))
        .map(|i| format!("{i}/{}", first_shard.of))
        .collect();
    if !absent.is_empty() {
        return Err(format!(
            "shard {} missing: merge the reports of every shard of the run",
            absent.join(", ")
        ));
    }
    let mut whole = Report {
        seed: first.seed,
        count: first.count,
        shard: Shard::WHOLE.to_string(),
        ..Report::default()
    };
    for (_, r) in parts {
        whole.programs += r.programs;
        whole.invalid += r.invalid;
        for (k, n) in &r.outcomes {
            *whole.outcomes.entry(k.clone()).or_default() += n;
        }
        for t in &r.targets {
            add_target(&mut whole.targets, t);
        }
        whole.findings.extend(r.findings.iter().cloned());
        // The shards ran side by side: the run took as long as the longest.
        whole.seconds = whole.seconds.max(r.seconds);
    }
    whole
        .findings
        .sort_by(|a, b| (a.index, &a.target).cmp(&(b.index, &b.target)));
    Ok(whole)
}

/// The shard a report says it is.
fn shard_of(name: &str, report: &Report) -> Result<Shard, String> {
    Shard::parse(&report.shard).map_err(|m| format!("{name}: {m}"))
}

/// Adds a shard's counts for one target to the whole run's.
fn add_target(all: &mut Vec<TargetReport>, t: &TargetReport) {
    let Some(sum) = all.iter_mut().find(|s| s.target == t.target) else {
        all.push(t.clone());
        return;
    };
    sum.compared += t.compared;
    sum.passed += t.passed;
    sum.failed += t.failed;
    sum.unsupported += t.unsupported;
    sum.seconds += t.seconds;
}
