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

impl Envelope {
    /// The envelope as a reply in `format` writes it, which [`check`] reads
    /// back (a tagged artifact with a line break at its end).
    pub fn write(&self, format: ReplyFormat) -> String {
        match format {
            ReplyFormat::Json => format!(
                "{{\"decision\": {}, \"artifact\": {}, \"reason\": {}}}",
                Value::from(self.decision.as_str()),
                Value::from(self.artifact.as_str()),
                Value::from(self.reason.as_str())
            ),
            ReplyFormat::Tagged => {
                let mut out = format!(
                    "{DECISION_TAG} {}\n{REASON_TAG} {}\n{OPEN}\n{}",
                    self.decision.as_str(),
                    self.reason,
                    self.artifact
                );
                if !self.artifact.is_empty() && !self.artifact.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(CLOSE);
                out.push('\n');
                out
            }
        }
    }
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

/// How a model writes its reply: one JSON object, or tagged lines with the
/// artifact verbatim between delimiter lines (no escaping).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum ReplyFormat {
    /// `{"decision": ..., "artifact": ..., "reason": ...}`.
    #[default]
    Json,
    /// `DECISION: ...`, `REASON: ...`, then the artifact between the lines
    /// [`OPEN`] and [`CLOSE`].
    Tagged,
}

impl ReplyFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            ReplyFormat::Json => "json",
            ReplyFormat::Tagged => "tagged",
        }
    }

    /// Whether this is the default (JSON), which logs leave out.
    pub fn is_json(&self) -> bool {
        *self == ReplyFormat::Json
    }
}

/// The line that opens a tagged reply's artifact. No line of Isu text can
/// be it: every Isu line starts with a keyword, a step ID, a section name,
/// `;`, or a bracket of an expression continued from the line above, and a
/// string literal never spans lines.
pub const OPEN: &str = "<<<";

/// The line that closes a tagged reply's artifact.
pub const CLOSE: &str = ">>>";

/// The tag of a tagged reply's decision line.
pub const DECISION_TAG: &str = "DECISION:";

/// The tag of a tagged reply's reason line.
pub const REASON_TAG: &str = "REASON:";

/// Checks a reply against the contract before anything in it is used: the
/// reply in `format` ([`fields_json`], [`fields_tagged`]), a decision that
/// `allow` permits (all when empty), an artifact that is what the decision
/// says ([`artifact_problem`]), a reason of at most [`MAX_REASON`]
/// characters. On failure, every problem found, each a sentence the model
/// is sent back as it stands.
pub fn check(
    reply: &str,
    allow: &[Decision],
    format: ReplyFormat,
) -> Result<Envelope, Vec<String>> {
    let (fields, mut problems) = match format {
        ReplyFormat::Json => fields_json(reply)?,
        ReplyFormat::Tagged => fields_tagged(reply),
    };
    let Fields {
        decision,
        artifact,
        reason,
    } = fields;
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

/// The three fields of a reply as it wrote them, before they are checked:
/// each missing when the reply did not give it.
#[derive(Debug, Default)]
struct Fields {
    decision: Option<String>,
    artifact: Option<String>,
    reason: Option<String>,
}

/// The fields of a JSON reply: one JSON object with exactly `decision`,
/// `artifact` and `reason`, each a string; with the problems of its shape.
/// A reply that is not a JSON object at all has no fields to check further.
fn fields_json(reply: &str) -> Result<(Fields, Vec<String>), Vec<String>> {
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
    let fields = Fields {
        decision: text("decision"),
        artifact: text("artifact"),
        reason: text("reason"),
    };
    Ok((fields, problems))
}

/// The fields of a tagged reply, with the problems of its shape. The reply
/// is, after blank lines at either end, exactly:
///
/// ```text
/// DECISION: submit
/// REASON: one line
/// <<<
/// the artifact, any number of lines, each kept verbatim
/// >>>
/// ```
///
/// The artifact is the lines between [`OPEN`] and the first [`CLOSE`], each
/// with its line break (so an Isu text ends with one, as canonical text
/// does); `\r` before a line break is dropped. Nothing may follow the
/// closing line.
fn fields_tagged(reply: &str) -> (Fields, Vec<String>) {
    let text = reply.replace("\r\n", "\n");
    let mut lines = text.trim_matches('\n').split('\n');
    let mut problems = Vec::new();
    let mut fields = Fields::default();
    let mut tagged = |tag: &str, what: &str, problems: &mut Vec<String>| -> Option<String> {
        match lines.next() {
            Some(line) => match line.strip_prefix(tag) {
                Some(value) => Some(value.trim().to_owned()),
                None => {
                    problems.push(format!(
                        "the {what} line `{tag} ...` is missing: found `{}` instead",
                        clip(line)
                    ));
                    None
                }
            },
            None => {
                problems.push(format!("the {what} line `{tag} ...` is missing"));
                None
            }
        }
    };
    fields.decision = tagged(DECISION_TAG, "first", &mut problems);
    fields.reason = tagged(REASON_TAG, "second", &mut problems);
    if !problems.is_empty() {
        return (fields, problems);
    }
    match lines.next() {
        Some(line) if line.trim_end() == OPEN => {}
        Some(line) => {
            problems.push(format!(
                "the third line must be `{OPEN}` alone, opening the artifact: found `{}`",
                clip(line)
            ));
            return (fields, problems);
        }
        None => {
            problems.push(format!(
                "the artifact is missing: after the REASON line, write `{OPEN}`, the artifact, and `{CLOSE}`, each on its own line"
            ));
            return (fields, problems);
        }
    }
    let mut artifact = String::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line.trim_end() == CLOSE {
            closed = true;
            break;
        }
        artifact.push_str(line);
        artifact.push('\n');
    }
    if !closed {
        problems.push(format!(
            "the artifact is not closed: end it with a line `{CLOSE}` alone"
        ));
        return (fields, problems);
    }
    if let Some(extra) = lines.find(|l| !l.trim().is_empty()) {
        problems.push(format!(
            "the reply goes on after the closing `{CLOSE}` line (`{}`): nothing may follow it",
            clip(extra)
        ));
    }
    fields.artifact = Some(artifact);
    (fields, problems)
}

/// The start of a line quoted in a problem, at most 60 characters.
fn clip(line: &str) -> String {
    let mut out: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        out.push_str("...");
    }
    out
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
