//! The reply envelope: every model reply is one JSON object with a
//! `decision`, an `artifact` and a short `reason`, checked before anything
//! in it is used. Its schema ([`schema`]) is what `isu schema envelope`
//! prints and what a server constraining JSON output is given.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// The longest `reason` a reply may give, in characters.
pub const MAX_REASON: usize = 1000;

/// What a reply decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A whole program: `artifact` is Isu text.
    Submit,
    /// A patch: `artifact` is `PATCH:` text.
    Patch,
    /// The model stops; `artifact` is empty.
    #[value(name = "give_up")]
    GiveUp,
}

impl Decision {
    pub const ALL: [Decision; 3] = [Decision::Submit, Decision::Patch, Decision::GiveUp];

    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Submit => "submit",
            Decision::Patch => "patch",
            Decision::GiveUp => "give_up",
        }
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
    let decisions: Vec<&str> = allowed(allow).iter().map(|d| d.as_str()).collect();
    let mut properties = Map::new();
    properties.insert(
        "decision".into(),
        json!({ "enum": decisions, "description": "submit: artifact is a whole Isu program; patch: artifact is PATCH: text; give_up: artifact is empty." }),
    );
    properties.insert(
        "artifact".into(),
        json!({ "type": "string", "description": "Isu text for submit, PATCH: text for patch, empty for give_up." }),
    );
    properties.insert(
        "reason".into(),
        json!({ "type": "string", "maxLength": MAX_REASON, "description": "Why, in a sentence or two." }),
    );
    json!({
        "$schema": crate::schema::DRAFT,
        "$id": "https://isu.dev/spec/envelope.schema.json",
        "title": "A model's reply to isu gen or isu repair",
        "type": "object",
        "properties": properties,
        "required": ["decision", "artifact", "reason"],
        "additionalProperties": false,
    })
}

/// Checks a reply against the contract before anything in it is used: one
/// JSON object with exactly `decision`, `artifact` and `reason`, each a
/// string, a decision that `allow` permits (all when empty), an artifact for
/// submit (Isu text) and patch (`PATCH:` text), a reason of at most
/// [`MAX_REASON`] characters. On failure, every problem found, each a
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
        match d {
            Decision::Submit | Decision::Patch if a.trim().is_empty() => {
                problems.push(format!(
                    "`artifact` is empty: a {} needs its text",
                    d.as_str()
                ));
            }
            Decision::Patch if !a.trim_start().starts_with("PATCH:") => {
                problems.push("a patch's `artifact` starts with `PATCH:`".to_owned());
            }
            Decision::Submit if a.trim_start().starts_with("PATCH:") => {
                problems.push("a submit's `artifact` is a whole program, not a patch".to_owned());
            }
            _ => {}
        }
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
