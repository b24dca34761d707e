//! The resource limits of a run, so that no program hangs the host or runs
//! it out of memory.

use isu_plugin_api::ExecLimits;

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
    /// The most the variables of a run may hold together, in the units of
    /// work (characters, elements and entries, `spec/semantics.md` 7): a
    /// store that would make them hold more stops with `memory_limit`.
    pub max_memory: u64,
}

/// The interpreter's limits for the limits every executor shares.
impl From<ExecLimits> for RunOptions {
    fn from(l: ExecLimits) -> RunOptions {
        RunOptions {
            max_steps: l.max_steps,
            max_size: usize::try_from(l.max_size).unwrap_or(usize::MAX),
            max_memory: l.max_memory,
        }
    }
}

/// [`ExecLimits::DEFAULT`], the one default of every executor.
impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions::from(ExecLimits::DEFAULT)
    }
}
