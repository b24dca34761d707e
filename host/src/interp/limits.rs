//! The resource limits of a run, so that no program hangs the host or runs
//! it out of memory.

/// The default of [`RunOptions::max_steps`].
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;
/// The default of [`RunOptions::max_size`].
pub const DEFAULT_MAX_SIZE: usize = 10_000_000;

/// How a run is limited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// The fuel: every loop round (each time a LOOP's BODY is about to run)
    /// costs one unit; when none is left the run stops with `step_limit` at
    /// that LOOP. Only loops can run long (Isu has no recursion or jumps), so
    /// this bounds every run, and every backend counts it the same way.
    pub max_steps: u64,
    /// The most elements an array, entries a map, or characters (Unicode
    /// scalar values) a string may hold; and the most JSON nodes (values,
    /// elements and entries, counted together) a result may have. Past it
    /// the run stops with `size_limit`.
    pub max_size: usize,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_steps: DEFAULT_MAX_STEPS,
            max_size: DEFAULT_MAX_SIZE,
        }
    }
}
