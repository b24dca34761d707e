//! The limits of one run, the same on every executor (`spec/semantics.md`,
//! "Limits"): the fuel loop rounds and work spend, the size values may grow
//! to, and the live size the variables of a run may hold together.

use serde::{Deserialize, Serialize};

/// Limits of one execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecLimits {
    /// The fuel: loop rounds (BODY runs of any LOOP) and the work of calls
    /// and copies (`crate::work`) before `step_limit`.
    pub max_steps: u64,
    /// Elements of a collection or characters of a string before `size_limit`.
    pub max_size: u64,
    /// The live size (`crate::work` sizes summed over every variable of the
    /// run) before `memory_limit`. Left out of a JSON form, the default.
    #[serde(default = "default_max_memory")]
    pub max_memory: u64,
}

fn default_max_memory() -> u64 {
    ExecLimits::DEFAULT.max_memory
}

impl ExecLimits {
    /// The limits of a run that sets none, the same on every executor: the
    /// interpreter, `isu run` and `isu test`, the conformance suite, and what
    /// backends build into their artifacts (a generated Python module's
    /// `MAX_STEPS`, a Wasm module's globals, the JavaScript loader), which take
    /// these values from here when they are generated (`spec/semantics.md`,
    /// "Limits").
    pub const DEFAULT: ExecLimits = ExecLimits {
        max_steps: 10_000_000,
        max_size: 10_000_000,
        max_memory: 1 << 24,
    };
}

impl Default for ExecLimits {
    fn default() -> ExecLimits {
        ExecLimits::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_form_without_the_memory_limit_has_the_default() {
        let old: Result<ExecLimits, _> = serde_json::from_str(r#"{"max_steps": 3, "max_size": 4}"#);
        assert_eq!(
            old.ok(),
            Some(ExecLimits {
                max_steps: 3,
                max_size: 4,
                max_memory: ExecLimits::DEFAULT.max_memory
            })
        );
    }
}
