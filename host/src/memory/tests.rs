//! One suite, run on both stores: every test takes the store's URL maker.

use super::*;
use crate::diag::Code;
use serde_json::json;
use std::cell::Cell;

/// The two kinds of store, each with a URL for a store named `name`.
type UrlOf = fn(&str) -> String;

const STORES: [(&str, UrlOf); 2] = [
    ("jsonl", |name| format!("file://mem/{name}.jsonl")),
    ("sqlite", |name| format!("sqlite://mem/{name}.db#lessons")),
];

/// A fresh root folder for one test on one store.
fn root(test: &str, store: &str) -> ProjectRoot {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/tmp/memory-tests")
        .join(format!("{test}-{store}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    ProjectRoot::at(&dir).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Runs `test` on a fresh store of each kind.
fn on_both(test: &str, body: impl Fn(&mut Store, &ProjectRoot, &str)) {
    for (kind, url) in STORES {
        let root = root(test, kind);
        let mut store =
            Store::open(&url_of(url), &root).unwrap_or_else(|d| panic!("{kind}: {d:?}"));
        body(&mut store, &root, kind);
    }
}

/// The store `m` of a kind.
fn url_of(url: UrlOf) -> StoreUrl {
    StoreUrl::parse(&url("m")).unwrap_or_else(|d| panic!("{d:?}"))
}

/// A clock that reads the given times in turn, then the last one forever.
struct Times(Cell<usize>, Vec<u64>);

impl Times {
    fn new(times: &[u64]) -> Times {
        Times(Cell::new(0), times.to_vec())
    }
}

impl Clock for Times {
    fn now(&self) -> Timestamp {
        let i = self.0.get();
        self.0.set(i + 1);
        let ms = self.1.get(i).or(self.1.last()).copied().unwrap_or(0);
        Timestamp::from_millis(ms).unwrap_or(Timestamp::MAX)
    }
}

const T0: u64 = 1_780_542_487_006;

fn record(v: Value) -> Record {
    Record::new(v).unwrap_or_else(|d| panic!("{d:?}"))
}

fn add(store: &mut Store, clock: &dyn Clock, v: Value) -> Envelope {
    store
        .add(&record(v), clock)
        .unwrap_or_else(|d| panic!("{d:?}"))
}

fn query(store: &Store, q: Value) -> Vec<Value> {
    let q = Query::from_json(&q).unwrap_or_else(|d| panic!("{d:?}"));
    let found = store.query(&q).unwrap_or_else(|d| panic!("{d:?}"));
    found.into_iter().map(|e| Value::Object(e.record)).collect()
}

fn n(store: &Store, q: Value) -> Vec<i64> {
    query(store, q)
        .iter()
        .map(|r| r["n"].as_i64().unwrap_or(-1))
        .collect()
}

#[test]
fn add_returns_the_envelope_and_query_finds_it() {
    on_both("add", |store, _, kind| {
        let clock = FixedClock(Timestamp::from_millis(T0).unwrap_or(Timestamp::MAX));
        let e = add(
            store,
            &clock,
            json!({"kind": "lesson", "text": "Use MAP_GET_OR"}),
        );
        assert_eq!(e.kind.as_deref(), Some("lesson"), "{kind}");
        assert_eq!(e.created_at, "2026-06-04T03:08:07.006Z");
        assert_eq!(e.updated_at, e.created_at);
        assert_eq!(e.id.len(), 26);
        assert!(e.id.starts_with(&record_id(clock.0, 0)[..10]), "{}", e.id);
        let found = store.query(&Query::default()).unwrap_or_default();
        assert_eq!(found, std::slice::from_ref(&e), "{kind}");
        // A record without a kind has a null kind.
        let plain = add(store, &clock, json!({"note": 1}));
        assert_eq!(plain.kind, None);
        assert_ne!(plain.id, e.id);
        let json = serde_json::to_value(&plain).unwrap_or_default();
        assert_eq!(json["kind"], Value::Null, "{json}");
    });
}

#[test]
fn newest_first_with_ties_broken_by_insertion_order() {
    on_both("order", |store, _, kind| {
        // Times: 5, 5, 9, 1 (a clock that went back), 9.
        let clock = Times::new(&[T0 + 5, T0 + 5, T0 + 9, T0 + 1, T0 + 9]);
        for i in 0..5 {
            add(store, &clock, json!({"n": i}));
        }
        assert_eq!(n(store, json!({})), [4, 2, 1, 0, 3], "{kind}");
        assert_eq!(n(store, json!({"limit": 2})), [4, 2], "{kind}");
    });
}

#[test]
fn limit_defaults_to_ten_and_must_be_a_positive_integer() {
    on_both("limit", |store, _, kind| {
        let clock = Times::new(&(0..15).map(|i| T0 + i).collect::<Vec<_>>());
        for i in 0..15 {
            add(store, &clock, json!({"n": i}));
        }
        assert_eq!(
            n(store, json!({})),
            (5..15).rev().collect::<Vec<_>>(),
            "{kind}"
        );
        assert_eq!(n(store, json!({"limit": 1})), [14]);
        assert_eq!(n(store, json!({"limit": 100})).len(), 15);
    });
    for bad in [json!(0), json!(-1), json!(2.5), json!("3"), json!(null)] {
        let d = Query::from_json(&json!({ "limit": bad })).err();
        assert_eq!(
            d.as_ref().map(|d| d.code),
            Some(Code::InvalidQuery),
            "{bad}"
        );
        let message = d.map(|d| d.message).unwrap_or_default();
        assert!(message.contains("positive integer"), "{message}");
    }
    let mut q = Query::default();
    for bad in ["0", "-3", "2.5", "ten", ""] {
        assert!(q.set_limit(bad).is_err(), "{bad}");
    }
    assert_eq!(q.set_limit("7").map(|()| q.limit), Ok(7));
}

#[test]
fn kind_is_exact_text_is_case_insensitive_where_is_top_level_exact() {
    on_both("filters", |store, _, kind| {
        let clock = Times::new(&(0..8).map(|i| T0 + i).collect::<Vec<_>>());
        let records = [
            json!({"n": 0, "kind": "lesson", "code": "type_mismatch", "text": "Compare STRINGS with eq"}),
            json!({"n": 1, "kind": "Lesson", "code": "type_mismatch"}),
            json!({"n": 2, "kind": "lesson", "code": "missing_key", "patch": "use MAP_GET_OR"}),
            json!({"n": 3, "kind": "rule", "text": "Ärger im Schritt", "count": 3}),
            json!({"n": 4, "kind": "rule", "count": "3", "nested": {"code": "type_mismatch"}}),
            json!({"n": 5, "text": "a \"quoted\" word"}),
        ];
        for r in records {
            add(store, &clock, r);
        }
        assert_eq!(n(store, json!({"kind": "lesson"})), [2, 0], "{kind}");
        assert_eq!(n(store, json!({"kind": "Lesson"})), [1]);
        assert_eq!(n(store, json!({"kind": "LESSON"})), Vec::<i64>::new());
        // text: the text field, or anywhere in the record's JSON, any case.
        assert_eq!(n(store, json!({"text": "strings"})), [0]);
        assert_eq!(n(store, json!({"text": "map_get_or"})), [2]);
        assert_eq!(n(store, json!({"text": "TYPE_MISMATCH"})), [4, 1, 0]);
        assert_eq!(n(store, json!({"text": "äRGER"})), [3]);
        assert_eq!(n(store, json!({"text": "a \"quoted\""})), [5]);
        assert_eq!(n(store, json!({"text": "nested"})), [4]);
        // where: top-level fields only, JSON values compared exactly.
        assert_eq!(
            n(store, json!({"where": {"code": "type_mismatch"}})),
            [1, 0]
        );
        assert_eq!(n(store, json!({"where": {"count": 3}})), [3]);
        assert_eq!(n(store, json!({"where": {"count": "3"}})), [4]);
        assert_eq!(
            n(store, json!({"where": {"missing": null}})),
            Vec::<i64>::new()
        );
        // Every filter must hold.
        assert_eq!(
            n(
                store,
                json!({"kind": "lesson", "where": {"code": "type_mismatch"}, "text": "eq"})
            ),
            [0]
        );
        assert_eq!(n(store, json!({"kind": "lesson", "limit": 1})), [2]);
    });
}

#[test]
fn records_are_json_objects_with_string_kind_and_text() {
    for bad in [
        json!([1, 2]),
        json!("lesson"),
        json!(null),
        json!({"kind": 3}),
        json!({"text": ["a"]}),
        json!({"big": "x".repeat(MAX_RECORD_BYTES)}),
    ] {
        let d = Record::new(bad.clone()).err();
        assert_eq!(d.map(|d| d.code), Some(Code::InvalidRecord), "{bad:.40}");
    }
    assert!(Record::new(json!({})).is_ok());
}

#[test]
fn queries_refuse_unknown_members_and_bad_where_clauses() {
    for bad in [
        json!({"sql": "DROP TABLE memory_records"}),
        json!({"where": "a=1"}),
        json!({"kind": 3}),
        json!([]),
    ] {
        let d = Query::from_json(&bad).err();
        assert_eq!(d.map(|d| d.code), Some(Code::InvalidQuery), "{bad}");
    }
    let mut q = Query::default();
    assert!(q.add_where("code=type_mismatch").is_ok());
    assert!(q.add_where("n=3").is_ok());
    assert!(q.add_where("name=\"3\"").is_ok());
    assert!(q.add_where("empty=").is_ok());
    assert_eq!(
        q.fields,
        [
            ("code".to_owned(), json!("type_mismatch")),
            ("n".to_owned(), json!(3)),
            ("name".to_owned(), json!("3")),
            ("empty".to_owned(), json!("")),
        ]
    );
    for bad in ["code", "=x", "code=again"] {
        assert_eq!(
            q.add_where(bad).err().map(|d| d.code),
            Some(Code::InvalidQuery),
            "{bad}"
        );
    }
}

#[test]
fn records_persist_across_opens_with_the_same_ids() {
    on_both("reopen", |store, root, kind| {
        let clock = Times::new(&[T0, T0, T0 + 1]);
        let added: Vec<Envelope> = (0..3)
            .map(|i| add(store, &clock, json!({"n": i})))
            .collect();
        let url = StoreUrl::parse(
            &STORES
                .iter()
                .find(|s| s.0 == kind)
                .map_or(String::new(), |s| s.1("m")),
        )
        .unwrap_or_else(|d| panic!("{d:?}"));
        let again = Store::open(&url, root).unwrap_or_else(|d| panic!("{d:?}"));
        let found = again.query(&Query::default()).unwrap_or_default();
        let mut expected = added.clone();
        expected.reverse();
        assert_eq!(found, expected, "{kind}");
        let ids: std::collections::BTreeSet<&str> = added.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids.len(), 3);
    });
}

#[test]
fn the_same_adds_at_the_same_times_give_the_same_envelopes() {
    for (kind, url) in STORES {
        let run = |name: &str| {
            let root = root(&format!("determinism-{name}"), kind);
            let mut store = Store::open(&url_of(url), &root).unwrap_or_else(|d| panic!("{d:?}"));
            let clock = Times::new(&[T0, T0, T0 + 3]);
            (0..3)
                .map(|i| add(&mut store, &clock, json!({"n": i})))
                .collect::<Vec<_>>()
        };
        assert_eq!(run("a"), run("b"), "{kind}");
    }
}

#[test]
fn opening_creates_missing_folders_and_refuses_paths_outside_the_root() {
    for (kind, _) in STORES {
        let root = root("paths", kind);
        let deep = match kind {
            "jsonl" => "file://a/b/c/m.jsonl",
            _ => "sqlite://a/b/c/m.db#x",
        };
        let url = StoreUrl::parse(deep).unwrap_or_else(|d| panic!("{d:?}"));
        assert!(Store::open(&url, &root).is_ok(), "{kind}");
        assert!(root.dir().join("a/b/c").is_dir());
        let outside = root.dir().join("../outside-store");
        let (scheme, ext) = deep.split_at(deep.find("://").unwrap_or(0) + 3);
        let ext = if ext.ends_with(".jsonl") {
            "jsonl"
        } else {
            "db"
        };
        for escape in [
            format!("{scheme}../x.{ext}"),
            format!("{scheme}a/../../x.{ext}"),
            format!("{scheme}{}/m.{ext}", outside.display()),
        ] {
            let url = StoreUrl::parse(&escape).unwrap_or_else(|d| panic!("{escape}: {d:?}"));
            let d = Store::open(&url, &root).err();
            assert_eq!(d.map(|d| d.code), Some(Code::PathOutsideRoot), "{escape}");
        }
        assert!(!outside.exists(), "nothing is created outside the root");
    }
}

#[test]
fn store_urls() {
    let ok = |u: &str| StoreUrl::parse(u).unwrap_or_else(|d| panic!("{u}: {d:?}"));
    assert_eq!(
        ok(DEFAULT_STORE),
        StoreUrl::Jsonl(".isu/memory.jsonl".into())
    );
    assert_eq!(
        ok("sqlite://m.db"),
        StoreUrl::Sqlite {
            path: "m.db".into(),
            namespace: DEFAULT_NAMESPACE.into()
        }
    );
    assert_eq!(ok("sqlite://m.db#a#b").to_string(), "sqlite://m.db#a#b");
    for bad in [
        "",
        ".isu/memory.jsonl",
        "file://m.json",
        "file://m.jsonl#ns",
        "sqlite://",
        "sqlite://m.db#",
        "sqlite://dir/#ns",
        "postgres://x",
        "FILE://m.jsonl",
    ] {
        let d = StoreUrl::parse(bad).err();
        assert_eq!(d.map(|d| d.code), Some(Code::InvalidStoreUrl), "{bad}");
    }
}

#[test]
fn sqlite_namespaces_are_isolated_and_only_ever_bound_values() {
    let root = root("namespaces", "sqlite");
    let clock = FixedClock(Timestamp::from_millis(T0).unwrap_or(Timestamp::MAX));
    let hostile = "x'); DROP TABLE memory_records; --";
    let mut stores: Vec<Store> = ["a", "b", hostile]
        .iter()
        .map(|ns| {
            let url = StoreUrl::Sqlite {
                path: "m.db".into(),
                namespace: (*ns).to_owned(),
            };
            Store::open(&url, &root).unwrap_or_else(|d| panic!("{d:?}"))
        })
        .collect();
    for (i, store) in stores.iter_mut().enumerate() {
        for j in 0..=i {
            add(store, &clock, json!({"n": j, "kind": "k"}));
        }
    }
    for (i, store) in stores.iter().enumerate() {
        assert_eq!(n(store, json!({})).len(), i + 1, "namespace {i}");
    }
    // The hostile kind is a value too.
    assert_eq!(
        n(&stores[0], json!({"kind": "k' OR '1'='1"})),
        Vec::<i64>::new()
    );
}

#[test]
fn a_corrupt_jsonl_line_is_named_and_nothing_is_rewritten() {
    let root = root("corrupt", "jsonl");
    let url = StoreUrl::parse("file://m.jsonl").unwrap_or_else(|d| panic!("{d:?}"));
    let mut store = Store::open(&url, &root).unwrap_or_else(|d| panic!("{d:?}"));
    let clock = FixedClock(Timestamp::from_millis(T0).unwrap_or(Timestamp::MAX));
    add(&mut store, &clock, json!({"n": 0}));
    let path = root.dir().join("m.jsonl");
    let good = std::fs::read_to_string(&path).unwrap_or_default();
    let cases = [
        (format!("{good}{{\"id\": 1}}\n"), "line 2"),
        (format!("{good}not json\n{good}"), "line 2"),
        (format!("{good}\n{good}[1]\n"), "line 4"),
        (format!("{good}{}", good.trim_end()), "line 2"),
        (
            good.replace("\"record\":{", "\"record\":{\"kind\":\"x\","),
            "line 1",
        ),
        (good.replace(".006Z", ".006+00:00"), "line 1"),
        (
            good.replace("\"kind\":null", "\"kind\":null,\"extra\":1"),
            "line 1",
        ),
    ];
    for (text, line) in cases {
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        let d = store.query(&Query::default()).err();
        assert_eq!(
            d.as_ref().map(|d| d.code),
            Some(Code::CorruptStore),
            "{text}"
        );
        let message = d.map(|d| d.message).unwrap_or_default();
        assert!(message.contains(line), "{line}: {message}");
        assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), text);
    }
    // An add after a line cut short is refused and appends nothing.
    let cut = good.trim_end().to_owned();
    std::fs::write(&path, &cut).unwrap_or_else(|e| panic!("{e}"));
    let d = store.add(&record(json!({"n": 1})), &clock).err();
    assert_eq!(d.map(|d| d.code), Some(Code::CorruptStore));
    assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), cut);
    // Blank lines are allowed.
    std::fs::write(&path, format!("\n{good}\n")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n(&store, json!({})), [0]);
    // Bytes that are not UTF-8 name their line.
    std::fs::write(&path, [good.as_bytes(), b"\xff\n"].concat()).unwrap_or_else(|e| panic!("{e}"));
    let d = store.query(&Query::default()).err();
    assert!(d.is_some_and(|d| d.code == Code::CorruptStore && d.message.contains("line 2")));
}

#[test]
fn a_corrupt_sqlite_row_or_a_foreign_database_is_refused() {
    let root = root("corrupt", "sqlite");
    let url = StoreUrl::parse("sqlite://m.db#ns").unwrap_or_else(|d| panic!("{d:?}"));
    let mut store = Store::open(&url, &root).unwrap_or_else(|d| panic!("{d:?}"));
    let clock = FixedClock(Timestamp::from_millis(T0).unwrap_or(Timestamp::MAX));
    add(&mut store, &clock, json!({"n": 0}));
    let conn =
        rusqlite::Connection::open(root.dir().join("m.db")).unwrap_or_else(|e| panic!("{e}"));
    conn.execute("UPDATE memory_records SET record_json = '[1]'", [])
        .unwrap_or_else(|e| panic!("{e}"));
    let d = store.query(&Query::default()).err();
    assert!(d.is_some_and(|d| d.code == Code::CorruptStore && d.message.contains("row 1")));
    conn.execute_batch("PRAGMA user_version = 7")
        .unwrap_or_else(|e| panic!("{e}"));
    let d = Store::open(&url, &root).err();
    assert!(
        d.is_some_and(|d| d.code == Code::StoreFailed && d.message.contains("schema version 7"))
    );
    std::fs::write(
        root.dir().join("text.db"),
        "not a database, just some text that is long enough to be a header",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let url = StoreUrl::parse("sqlite://text.db").unwrap_or_else(|d| panic!("{d:?}"));
    let d = Store::open(&url, &root).err();
    assert_eq!(d.map(|d| d.code), Some(Code::StoreFailed));
}

#[test]
fn lessons_round_trip_through_both_stores() {
    on_both("lessons", |store, _, kind| {
        let clock = Times::new(&[T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5]);
        let error = Diagnostic::error(Code::TypeMismatch, "expected int, found string");
        let other = Diagnostic::error(Code::MissingKey, "no key 3");
        for (d, step, text) in [
            (&error, "ASSIGN", "ASSIGN: ..."),
            (&other, "ASSIGN", "x"),
            (&error, "IF", "IF: ..."),
            (&error, "ASSIGN", "ASSIGN: again"),
        ] {
            let lesson = Lesson::new(d, Some(step), text, "PATCH:\n  DELETE S1\n");
            let r = lesson.record().unwrap_or_else(|d| panic!("{d:?}"));
            store.add(&r, &clock).unwrap_or_else(|d| panic!("{d:?}"));
        }
        let q = Lesson::query_for(&error, Some("ASSIGN"));
        let found: Vec<String> = store
            .query(&q)
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.record["text"].as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(found, ["ASSIGN: again", "ASSIGN: ..."], "{kind}");
        assert_eq!(
            store
                .query(&Lesson::query_for(&error, None))
                .map(|v| v.len()),
            Ok(3)
        );
    });
}
