//! The reply envelope: every model reply is one JSON object with a
//! `decision`, an `artifact` and a short `reason`, checked before anything
//! in it is used. Its schema ([`schema`]) is what `isu schema envelope`
//! prints and what a server constraining JSON output is given.
//!
//! The decisions are one table ([`DECISIONS`]): each names what its artifact
//! is ([`Artifact`]), and the checker, the schema, the system message and
//! the envelope's grammar (`crate::grammar::envelope`) read it from there.

use crate::syntax::{vocab::SECTION_ORDER, Kw};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// The longest `reason` a reply may give, in characters.
pub const MAX_REASON: usize = 1000;

/// The longest description an `explain` reply may give, in characters.
pub const MAX_WORDS: usize = 4000;

/// What a reply decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A whole program: `artifact` is Isu text.
    Submit,
    /// A patch: `artifact` is `PATCH:` text.
    Patch,
    /// A description: `artifact` is what a program does, in plain words.
    Explain,
    /// The model stops; `artifact` is empty.
    #[value(name = "give_up")]
    GiveUp,
}

/// What a decision's artifact is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Artifact {
    /// A whole Isu program.
    Program,
    /// A patch file (`PATCH:`).
    Patch,
    /// Plain words, no Isu: at most [`MAX_WORDS`] characters.
    Words,
    /// Nothing.
    Empty,
}

/// One row of the table of decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecisionInfo {
    pub decision: Decision,
    /// The decision as a reply writes it.
    pub name: &'static str,
    pub artifact: Artifact,
    /// What the artifact is, as the schema and the system message say it.
    pub says: &'static str,
}

/// Every decision, in the order of the schema's `enum`.
pub const DECISIONS: [DecisionInfo; 4] = [
    DecisionInfo {
        decision: Decision::Submit,
        name: "submit",
        artifact: Artifact::Program,
        says: "a whole Isu program",
    },
    DecisionInfo {
        decision: Decision::Patch,
        name: "patch",
        artifact: Artifact::Patch,
        says: "a patch, starting with PATCH:",
    },
    DecisionInfo {
        decision: Decision::Explain,
        name: "explain",
        artifact: Artifact::Words,
        says: "what the program does, in plain words a person could write it from (no code)",
    },
    DecisionInfo {
        decision: Decision::GiveUp,
        name: "give_up",
        artifact: Artifact::Empty,
        says: "empty",
    },
];

impl Decision {
    pub const ALL: [Decision; 4] = [
        DECISIONS[0].decision,
        DECISIONS[1].decision,
        DECISIONS[2].decision,
        DECISIONS[3].decision,
    ];

    /// The decision's row of [`DECISIONS`].
    pub fn info(self) -> &'static DecisionInfo {
        match self {
            Decision::Submit => &DECISIONS[0],
            Decision::Patch => &DECISIONS[1],
            Decision::Explain => &DECISIONS[2],
            Decision::GiveUp => &DECISIONS[3],
        }
    }

    pub fn as_str(self) -> &'static str {
        self.info().name
    }

    pub fn artifact(self) -> Artifact {
        self.info().artifact
    }
}

/// One checked reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub decision: Decision,
    pub artifact: String,
    pub reason: String,
}

/// The decisions `allow` names, or all when it is empty, in table order.
fn allowed(allow: &[Decision]) -> Vec<Decision> {
    Decision::ALL
        .into_iter()
        .filter(|d| allow.is_empty() || allow.contains(d))
        .collect()
}

/// The JSON Schema (2020-12) of a reply that may take the decisions of
/// `allow` (all when empty).
pub fn schema(allow: &[Decision]) -> Value {
    let allowed = allowed(allow);
    let decisions: Vec<&str> = allowed.iter().map(|d| d.as_str()).collect();
    let says: Vec<String> = allowed
        .iter()
        .map(|d| format!("{}: artifact is {}", d.as_str(), d.info().says))
        .collect();
    let mut properties = Map::new();
    properties.insert(
        "decision".into(),
        json!({ "enum": decisions, "description": format!("{}.", says.join("; ")) }),
    );
    properties.insert(
        "artifact".into(),
        json!({ "type": "string", "description": "What the decision says it is." }),
    );
    properties.insert(
        "reason".into(),
        json!({ "type": "string", "maxLength": MAX_REASON, "description": "Why, in a sentence or two." }),
    );
    json!({
        "$schema": crate::schema::DRAFT,
        "$id": "https://isu.dev/spec/envelope.schema.json",
        "title": "A model's reply to isu gen, isu repair or isu explain",
        "type": "object",
        "properties": properties,
        "required": ["decision", "artifact", "reason"],
        "additionalProperties": false,
    })
}

/// Checks a reply against the contract before anything in it is used: one
/// JSON object with exactly `decision`, `artifact` and `reason`, each a
/// string, a decision that `allow` permits (all when empty), an artifact
/// that is what the decision says ([`artifact_problem`]), a reason of at
/// most [`MAX_REASON`] characters. On failure, every problem found, each a
/// sentence the model is sent back as it stands.
pub fn check(reply: &str, allow: &[Decision]) -> Result<Envelope, Vec<String>> {
    // The strict reader: a repeated key is refused, not silently the last.
    let value: Value = match isu_plugin_api::json::parse(reply.trim()) {
        Ok(v) => v,
        Err(e) => {
            return Err(vec![format!(
                "the reply is not one JSON object ({e}); reply with exactly one JSON object and nothing before or after it"
            )])
        }
    };
    let Value::Object(obj) = value else {
        return Err(vec![
            "the reply is JSON but not an object; reply with {\"decision\": ..., \"artifact\": ..., \"reason\": ...}".to_owned(),
        ]);
    };
    let mut problems = Vec::new();
    for key in obj.keys() {
        if !FIELDS.contains(&key.as_str()) {
            problems.push(format!(
                "unknown field `{key}`: the only fields are decision, artifact and reason"
            ));
        }
    }
    let mut text = |key: &str| match obj.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            problems.push(format!("`{key}` must be a string"));
            None
        }
        None => {
            problems.push(format!("`{key}` is missing"));
            None
        }
    };
    let decision = text("decision");
    let artifact = text("artifact");
    let reason = text("reason");
    let allowed = allowed(allow);
    let names = allowed
        .iter()
        .map(|d| d.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let decision =
        decision.and_then(
            |d| match Decision::ALL.into_iter().find(|x| x.as_str() == d) {
                Some(x) if allowed.contains(&x) => Some(x),
                Some(_) => {
                    problems.push(format!(
                        "the decision `{d}` is not allowed now; allowed: {names}"
                    ));
                    None
                }
                None => {
                    problems.push(format!("`{d}` is not a decision; allowed: {names}"));
                    None
                }
            },
        );
    if reason
        .as_ref()
        .is_some_and(|r| r.chars().count() > MAX_REASON)
    {
        problems.push(format!("`reason` is longer than {MAX_REASON} characters"));
    }
    if let (Some(d), Some(a)) = (decision, &artifact) {
        problems.extend(artifact_problem(d, a));
    }
    match (decision, artifact, reason) {
        (Some(decision), Some(artifact), Some(reason)) if problems.is_empty() => Ok(Envelope {
            decision,
            artifact,
            reason,
        }),
        _ => Err(problems),
    }
}

/// The fields of an envelope, in the order of the schema.
const FIELDS: [&str; 3] = ["decision", "artifact", "reason"];

/// What is wrong with `artifact` as the artifact of `decision`, if anything:
/// a program or a patch that is empty, a patch that does not start with
/// `PATCH:`, a program that does, words that are empty, too long, or Isu (a
/// line that starts a section or a patch: the description of a program is
/// not the program).
pub fn artifact_problem(decision: Decision, artifact: &str) -> Option<String> {
    let name = decision.as_str();
    // "a submit", "an explain".
    let a = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    let patch = artifact.trim_start().starts_with("PATCH:");
    match decision.artifact() {
        Artifact::Program | Artifact::Patch | Artifact::Words if artifact.trim().is_empty() => {
            Some(format!("`artifact` is empty: {a} {name} needs its text"))
        }
        Artifact::Patch if !patch => Some(format!("{a} {name}'s `artifact` starts with `PATCH:`")),
        Artifact::Program if patch => Some(format!(
            "{a} {name}'s `artifact` is a whole program, not a patch"
        )),
        Artifact::Words if artifact.chars().count() > MAX_WORDS => Some(format!(
            "{a} {name}'s `artifact` is longer than {MAX_WORDS} characters"
        )),
        Artifact::Words => isu_line(artifact).map(|line| {
            format!("{a} {name}'s `artifact` is plain words, not Isu: it has the line `{line}`")
        }),
        Artifact::Program | Artifact::Patch | Artifact::Empty => None,
    }
}

/// The first line of `text` that starts a section of a program (`STEPS:`)
/// or a patch (`PATCH:`), trimmed.
fn isu_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|line| {
        SECTION_ORDER.iter().chain([&Kw::Patch]).any(|k| {
            line.strip_prefix(k.as_str())
                .is_some_and(|r| r.starts_with(':'))
        })
    })
}
