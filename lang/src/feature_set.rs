//! What a backend supports, as a positive, versioned set of feature names.
//!
//! The vocabulary of features ([`FEATURES`]) grows over time; each name
//! records the vocabulary version that introduced it. A backend declares the
//! vocabulary version it was written against and the features it supports
//! ([`FeatureSet`]). A feature it does not name is unsupported, so a feature
//! added to the language later is unsupported by every backend written
//! before it, never supported by omission. A new kind of IIR node (a change a
//! reader must understand) comes with a feature, so a program using it is
//! never sent to a backend that does not declare it.
//!
//! The names: the types (`int`, `float`, `bool`, `string`, `array`, `nested_array`
//! for an array of arrays or maps, `map`, `struct` for the structs of
//! `TYPES` with their literals, fields and field places), the forms of
//! language 2.1 (`loop_exit` for the `BREAK` and `CONTINUE` steps, `list` for
//! `(list E ...)`, `if_expr` for `(if C A B)`, `string_index` for `(index s
//! i)` on a string), `call:NAME` for each standard
//! function, and what the executor enforces (`limit_steps`: the step budget
//! stops a run at the LOOP, as the interpreter's does; `limit_size`: the
//! size limit, likewise; `limit_work`: the work of standard functions and
//! copies spent from the same budget, `isu_lang::work`; `limit_memory`: the
//! live size of the variables bounded by `max_memory`). Pack functions (`call:math.GCD`) are not features:
//! a backend gets their definitions as lowerings.

use serde::{Deserialize, Serialize};

/// The newest version of the feature vocabulary.
pub const FEATURE_SET_VERSION: u32 = 7;

/// Every feature, with the vocabulary version that introduced it.
pub const FEATURES: &[(&str, u32)] = &[
    ("int", 1),
    ("bool", 1),
    ("string", 1),
    ("array", 1),
    ("nested_array", 1),
    ("map", 1),
    ("struct", 5),
    ("loop_exit", 6),
    ("list", 6),
    ("if_expr", 6),
    ("string_index", 6),
    ("float", 7),
    ("limit_steps", 1),
    ("limit_size", 1),
    ("limit_work", 2),
    ("limit_memory", 3),
    ("call:ABS", 1),
    ("call:CEIL", 7),
    ("call:CHARS", 1),
    ("call:CONCAT", 1),
    ("call:CONTAINS", 4),
    ("call:FLOAT", 7),
    ("call:FLOOR", 7),
    ("call:INDEX_OF", 4),
    ("call:JOIN", 1),
    ("call:LEN", 1),
    ("call:LOWER", 1),
    ("call:MAP_GET", 1),
    ("call:MAP_GET_OR", 1),
    ("call:MAP_HAS", 1),
    ("call:MAP_KEYS", 1),
    ("call:MAP_SET", 1),
    ("call:MAX", 1),
    ("call:MIN", 1),
    ("call:PARSE_FLOAT", 7),
    ("call:PARSE_INT", 1),
    ("call:POP", 1),
    ("call:PUSH", 1),
    ("call:REPEAT", 1),
    ("call:REVERSE", 6),
    ("call:ROUND", 7),
    ("call:SLICE", 1),
    ("call:SORT", 4),
    ("call:SPLIT", 4),
    ("call:SPLIT_WHITESPACE", 1),
    ("call:SQRT", 7),
    ("call:TO_STRING", 1),
    ("call:TRUNC", 7),
    ("call:UPPER", 4),
];

/// The vocabulary version that introduced `name`, or `None` when it is no
/// feature of this vocabulary.
pub fn introduced_in(name: &str) -> Option<u32> {
    FEATURES.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// Whether `name` is a feature of the vocabulary (a pack call is not).
pub fn is_feature(name: &str) -> bool {
    introduced_in(name).is_some()
}

/// The features a backend supports, and the vocabulary version it knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureSet {
    /// The vocabulary version the backend was written against.
    pub version: u32,
    /// The features it supports, sorted.
    pub supported: Vec<String>,
}

impl FeatureSet {
    /// Every feature of vocabulary `version`: a backend that supports the
    /// whole language as it was at that version. Features added later stay
    /// unsupported until the backend raises the version.
    pub fn all_of(version: u32) -> FeatureSet {
        FeatureSet::of(version, FEATURES.iter().filter(|(_, v)| *v <= version))
    }

    /// Every feature of vocabulary `version` except `lacks`.
    pub fn all_of_except(version: u32, lacks: &[&str]) -> FeatureSet {
        let kept = FEATURES
            .iter()
            .filter(|(n, v)| *v <= version && !lacks.contains(n));
        FeatureSet::of(version, kept)
    }

    /// Exactly the features `supports`, as of vocabulary `version`: the way
    /// to declare a backend that supports a small part of the language, so
    /// that whatever the vocabulary gains stays unsupported. A name that is
    /// no feature of that version is kept, and refused when the host loads
    /// the backend ([`FeatureSet::unknown`]).
    pub fn only(version: u32, supports: &[&str]) -> FeatureSet {
        let mut supported: Vec<String> = supports.iter().map(|n| (*n).to_owned()).collect();
        supported.sort();
        supported.dedup();
        FeatureSet { version, supported }
    }

    fn of<'a>(version: u32, features: impl Iterator<Item = &'a (&'a str, u32)>) -> FeatureSet {
        let mut supported: Vec<String> = features.map(|(n, _)| (*n).to_owned()).collect();
        supported.sort();
        FeatureSet { version, supported }
    }

    /// Whether `feature` is in the set.
    pub fn supports(&self, feature: &str) -> bool {
        self.supported.iter().any(|f| f == feature)
    }

    /// The features of `used` this set lacks, sorted: those of the
    /// vocabulary it does not name (names that are no feature, such as pack
    /// calls, are left out).
    pub fn missing<'a>(&self, used: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut out: Vec<String> = used
            .into_iter()
            .filter(|f| is_feature(f) && !self.supports(f))
            .map(str::to_owned)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The features of the vocabulary (up to its own version, as far as this
    /// crate knows it) the set does not name, sorted.
    pub fn lacks(&self) -> Vec<String> {
        let known = self.version.min(FEATURE_SET_VERSION);
        self.missing(
            FEATURES
                .iter()
                .filter(|(_, v)| *v <= known)
                .map(|(n, _)| *n),
        )
    }

    /// The names that are not features of vocabulary `self.version` (as far
    /// as this crate knows it): a mistake of the backend. Names of a newer
    /// vocabulary than this crate's are not judged.
    pub fn unknown(&self) -> Vec<&str> {
        self.supported
            .iter()
            .map(String::as_str)
            .filter(|f| match introduced_in(f) {
                Some(v) => v > self.version,
                None => self.version <= FEATURE_SET_VERSION,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_has_each_name_once_and_no_version_past_the_newest() {
        let mut names: Vec<&str> = FEATURES.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FEATURES.len());
        assert!(FEATURES
            .iter()
            .all(|(_, v)| *v >= 1 && *v <= FEATURE_SET_VERSION));
    }

    #[test]
    fn the_call_features_are_the_standard_functions() {
        let calls: Vec<&str> = FEATURES
            .iter()
            .filter_map(|(n, _)| n.strip_prefix("call:"))
            .collect();
        let stdlib: Vec<&str> = crate::stdlib::STDLIB.iter().map(|f| f.name).collect();
        assert_eq!(
            calls, stdlib,
            "one `call:NAME` per standard function, in the table's order"
        );
    }

    #[test]
    fn every_feature_a_program_can_use_is_in_the_vocabulary() {
        let mut programs = crate::build::RandomPrograms::new(7);
        for _ in 0..200 {
            for f in crate::features::used_by(&programs.program()) {
                assert!(is_feature(&f), "`{f}` is used but no feature");
            }
        }
    }

    #[test]
    fn a_positive_set_lacks_what_it_does_not_name() {
        let toy = FeatureSet::all_of_except(1, &["map", "call:LEN"]);
        assert!(toy.supports("int") && !toy.supports("map"));
        assert_eq!(toy.lacks(), ["call:LEN", "map"]);
        assert_eq!(toy.missing(["int", "map", "call:math.GCD", "map"]), ["map"]);
        assert_eq!(FeatureSet::all_of(1).lacks(), Vec::<String>::new());
        let odd = FeatureSet {
            version: 1,
            supported: vec!["int".into(), "floats".into()],
        };
        assert_eq!(odd.unknown(), ["floats"]);
        let newer = FeatureSet {
            version: FEATURE_SET_VERSION + 1,
            supported: vec!["int".into(), "call:SHUFFLE".into()],
        };
        assert!(newer.unknown().is_empty());
        assert!(newer.missing(["call:SHUFFLE"]).is_empty());
        let small = FeatureSet::only(FEATURE_SET_VERSION, &["int", "bool", "int"]);
        assert_eq!(small.supported, ["bool", "int"]);
        assert!(small.lacks().contains(&"struct".to_owned()));
        assert!(small.unknown().is_empty());
        assert_eq!(FeatureSet::only(1, &["struct"]).unknown(), ["struct"]);
    }
}
