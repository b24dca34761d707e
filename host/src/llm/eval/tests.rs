//! Merging shard reports: the merged report is the whole run's, whatever the
//! order of the parts; every way parts can fail to make one run is refused,
//! naming the file.

use super::*;

fn result(id: usize) -> TaskResult {
    TaskResult {
        id: format!("t{id}"),
        status: Status::Passed,
        passed: !id.is_multiple_of(3),
        hidden_passed: id % 4,
        hidden: 3,
        rounds: 1 + id % 3,
        passed_in_round: (!id.is_multiple_of(5)).then_some(1 + (id % 3) as u32),
        tokens: 10 * id as u64,
        ms: 7 * id as u64,
        log: None,
        roundtrip: None,
    }
}

fn whole(tasks: usize) -> Report {
    Report {
        model: "m".into(),
        lessons: false,
        store: None,
        shard: None,
        tasks: (0..tasks).map(result).collect(),
        roundtrip: None,
    }
}

/// The reports shard by shard of `whole`, as `--shard I/N` writes them.
fn shards(whole: &Report, count: usize) -> Vec<(String, Report)> {
    (1..=count)
        .map(|index| {
            let part = Report {
                shard: Some(ShardOf {
                    index,
                    count,
                    tasks: whole.tasks.len(),
                    digest: "d".into(),
                }),
                tasks: shard(&whole.tasks, index, count),
                ..whole.clone()
            };
            (format!("s{index}.json"), part)
        })
        .collect()
}

#[test]
fn merged_shards_are_the_whole_run_in_any_order() {
    for (tasks, count) in [(7, 3), (3, 2), (2, 4), (0, 1), (5, 5), (1, 1)] {
        let run = whole(tasks);
        let mut parts = shards(&run, count);
        parts.reverse();
        let merged = merge(&parts).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(merged, run, "{tasks} tasks in {count} shards");
        assert_eq!(merged.to_json(), run.to_json());
    }
}

#[test]
fn reports_that_are_not_one_run_are_refused_by_name() {
    let run = whole(7);
    let err = |parts: &[(String, Report)]| merge(parts).err().unwrap_or_default();
    assert_eq!(err(&[]), "no reports to merge");

    let parts = shards(&run, 3);
    assert_eq!(
        err(&parts[..2]),
        "shard 3/3 missing: merge the reports of every shard of the run"
    );
    let twice = [parts[0].clone(), parts[1].clone(), parts[0].clone()];
    assert_eq!(err(&twice), "s1.json and s1.json are both shard 1/3");

    let mut with_whole = parts.clone();
    with_whole.push(("all.json".into(), run.clone()));
    assert!(
        err(&with_whole).starts_with("all.json is the report of a whole run"),
        "{}",
        err(&with_whole)
    );

    let mut other_file = parts.clone();
    if let Some(s) = other_file[1].1.shard.as_mut() {
        s.digest = "e".into();
    }
    assert!(
        err(&other_file).starts_with("s2.json is shard 2/3 of a file of 7 tasks (sha256 e)"),
        "{}",
        err(&other_file)
    );

    let mut other_count = parts.clone();
    other_count[2].1 = shards(&run, 4).remove(2).1;
    assert!(err(&other_count).contains("shards of one run only"));

    let mut other_model = parts.clone();
    other_model[1].1.model = "n".into();
    assert_eq!(
        err(&other_model),
        "s2.json ran model n with lessons off and round trips none, s1.json model m with lessons off and round trips none: shards of one run only"
    );

    let mut other_roundtrip = parts.clone();
    other_roundtrip[1].1.roundtrip = Some(roundtrip::Settings {
        inputs: 20,
        seed: 1,
    });
    assert_eq!(
        err(&other_roundtrip),
        "s2.json ran model m with lessons off and round trips of 20 inputs, seed 1, s1.json model m with lessons off and round trips none: shards of one run only"
    );

    let mut short = parts.clone();
    short[0].1.tasks.pop();
    assert_eq!(
        err(&short),
        "s1.json holds 2 results for shard 1/3 of 7 tasks, which has 3"
    );

    let mut beyond = parts;
    if let Some(s) = beyond[2].1.shard.as_mut() {
        s.index = 4;
    }
    assert_eq!(
        err(&beyond),
        "s3.json holds 2 results for shard 4/3 of 7 tasks, which has 0"
    );
}
