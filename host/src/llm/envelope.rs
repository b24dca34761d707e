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
