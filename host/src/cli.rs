//! The command line of `isu`.

/// Runs the CLI and returns the process exit code.
pub fn main() -> i32 {
    0
}
