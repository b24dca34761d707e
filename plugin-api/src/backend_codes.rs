//! The codes of failures of plugins themselves (diagnostics of kind
//! `BackendError`), as one typed list that every backend, pack and the host
//! share: the same situation gets the same code from every plugin.
//!
//! Errors of the program (runtime errors) use the host's codes of
//! `spec/errors.md` instead; `spec/plugin-abi.md` lists these.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! backend_codes {
    ($($variant:ident = $text:literal, $summary:literal;)*) => {
        /// The code of a failure of a plugin (not of the program).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum BackendCode {
            $(#[doc = $summary] $variant,)*
        }

        impl BackendCode {
            /// Every code, in the order of the table.
            pub const ALL: &'static [BackendCode] = &[$(BackendCode::$variant,)*];

            /// The stable text of the code.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(BackendCode::$variant => $text,)*
                }
            }

            /// One line saying what the code means.
            pub fn summary(self) -> &'static str {
                match self {
                    $(BackendCode::$variant => $summary,)*
                }
            }
        }
    };
}

backend_codes! {
    // What a backend cannot do; the conformance suite reports these as unsupported.
    UnsupportedFeature = "unsupported_feature", "the program uses a language feature the backend does not support";
    UnsupportedTarget = "unsupported_target", "the backend was asked for a target it does not serve";
    UnsupportedEmit = "unsupported_emit", "the backend was asked for an artifact kind it cannot emit";
    UnknownSetting = "unknown_setting", "a `--set` names a setting the backend does not declare";
    InvalidSetting = "invalid_setting", "a `--set` value the setting does not allow";
    CannotExecute = "cannot_execute", "the backend builds but does not run what it builds, or the artifact it runs is missing";
    UnknownFunction = "unknown_function", "a pack was asked for a function it does not have";
    // Failures while working.
    BackendFailed = "backend_failed", "the backend or a tool it runs failed (a missing interpreter, a crash of the tool)";
    OutOfMemory = "out_of_memory", "the compiled program ran out of the memory its runtime has";
    InvalidProgram = "invalid_program", "the backend got IIR that is not canonical and validated (a bug of the host)";
    InternalError = "internal_error", "the backend broke one of its own invariants (a bug of the backend)";
    // The boundary, checked by the export macros and the host.
    PluginPanicked = "plugin_panicked", "the plugin panicked; the panic was caught at the boundary";
    PluginBadInput = "plugin_bad_input", "the plugin could not read what the host sent (another plugin API or IIR format)";
    PluginBadOutput = "plugin_bad_output", "the plugin answered what the plugin API does not allow";
    PluginCrashed = "plugin_crashed", "the isolated plugin host process died (an abort, a segmentation fault)";
    PluginTimeout = "plugin_timeout", "the isolated plugin host did not answer within the time limit, and was stopped";
    PluginCpuLimit = "plugin_cpu_limit", "the isolated plugin host (or a backend's worker) spent more CPU time on one call than its limit, and was stopped";
    HostBug = "host_bug", "the host could not do its part of a call (a bug of the host)";
}

impl BackendCode {
    /// The code of this text, if it is one.
    pub fn parse(text: &str) -> Option<BackendCode> {
        BackendCode::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == text)
    }

    /// Whether the code says the backend cannot do what was asked (rather
    /// than that it failed doing it): a conformance case it gets is
    /// unsupported, not failed.
    pub fn is_unsupported(self) -> bool {
        matches!(
            self,
            BackendCode::UnsupportedFeature
                | BackendCode::UnsupportedTarget
                | BackendCode::UnsupportedEmit
                | BackendCode::CannotExecute
        )
    }
}

impl fmt::Display for BackendCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case_and_serialize_as_their_text() {
        let mut seen = std::collections::BTreeSet::new();
        for c in BackendCode::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
            assert!(c
                .as_str()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_'));
            assert_eq!(BackendCode::parse(c.as_str()), Some(*c));
            let json = serde_json::to_string(c).unwrap_or_default();
            assert_eq!(json, format!("\"{c}\""));
        }
        assert_eq!(BackendCode::parse("int_overflow"), None);
    }
}
