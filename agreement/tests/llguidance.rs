//! llguidance's Rust crate (1.9.1, `lark` feature only) on the exported Lark
//! grammars, with a byte-level tokenizer: it accepts every canonical program
//! and patch of the test data and random programs of `gen`, and rejects the
//! invalid texts, as host/tests/grammar_agreement.rs checks with Python's
//! lark and llguidance.

#[path = "../../host/tests/agreement/corpus.rs"]
mod corpus;
#[path = "../../host/tests/gen/mod.rs"]
mod gen;

use corpus::Text;
use isu_host::canon;
use isu_host::grammar::{self, Format, Start};
use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use toktrie::ApproximateTokEnv;

fn random_programs(n: usize) -> Vec<Text> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = gen::program();
    (0..n)
        .map(|i| Text {
            name: format!("random program {i}"),
            text: canon::print(
                &strategy
                    .new_tree(&mut runner)
                    .unwrap_or_else(|e| panic!("{e}"))
                    .current(),
            ),
            start: Start::Program,
            accept: true,
        })
        .collect()
}

/// A matcher for one grammar, compiled once and cloned for each text.
struct Checker {
    fresh: Matcher,
}

impl Checker {
    fn new(start: Start) -> Checker {
        let env = ApproximateTokEnv::single_byte_env();
        let factory = ParserFactory::new_simple(&env).unwrap_or_else(|e| panic!("{e}"));
        let g = grammar::grammar(&corpus::vocabulary(gen::PACK_FUNCTIONS), start);
        let lark = grammar::print(&g, Format::Lark);
        let fresh = Matcher::new(factory.create_parser(TopLevelGrammar::from_lark(lark)));
        if let Some(e) = fresh.get_error() {
            panic!("llguidance refuses the grammar: {e}");
        }
        Checker { fresh }
    }

    fn accepts(&self, text: &str) -> bool {
        let mut m = self.fresh.clone();
        let tokens: Vec<u32> = text.bytes().map(u32::from).collect();
        match m.try_consume_tokens(&tokens) {
            Ok(n) if n == tokens.len() => m.is_accepting().unwrap_or(false),
            _ => false,
        }
    }
}

#[test]
fn llguidance_agrees_with_the_parser() {
    let program = Checker::new(Start::Program);
    let patch = Checker::new(Start::Patch);
    let texts: Vec<Text> = [
        corpus::programs(),
        corpus::patches(),
        corpus::invalid_programs(),
        random_programs(200),
    ]
    .concat();
    let rejected = texts.iter().filter(|t| !t.accept).count();
    assert!(rejected >= 50, "only {rejected} invalid texts");
    let mut failures = Vec::new();
    for t in &texts {
        let checker = if t.start == Start::Patch {
            &patch
        } else {
            &program
        };
        if checker.accepts(&t.text) != t.accept {
            failures.push(format!(
                "llguidance {} {}:\n{}",
                if t.accept { "rejects" } else { "accepts" },
                t.name,
                t.text
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
