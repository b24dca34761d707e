//! Debug information: the Isu file is the source of `isu_run`, and every
//! instruction carries the line and column of the step it belongs to, so
//! that gdb, perf and addr2line point at Isu lines (DWARF line tables).

use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::debug_info::{
    AsDIScope, DICompileUnit, DIFlags, DIFlagsConstants, DIScope, DWARFEmissionKind,
    DWARFSourceLanguage, DebugInfoBuilder,
};
use inkwell::module::{FlagBehavior, Module};
use inkwell::values::FunctionValue;
use isu_plugin_api::Span;
use std::path::Path;

/// The debug-info builder of a module and the scope of `isu_run`.
pub struct Debug<'ctx> {
    pub di: DebugInfoBuilder<'ctx>,
    pub unit: DICompileUnit<'ctx>,
    pub scope: DIScope<'ctx>,
    pub line: u32,
}

impl std::fmt::Debug for Debug<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Debug")
            .field("line", &self.line)
            .finish_non_exhaustive()
    }
}

impl<'ctx> Debug<'ctx> {
    /// Debug info for `run`, compiled from the Isu file `source` (the
    /// function starts at `line`).
    pub fn new(
        cx: &'ctx Context,
        m: &Module<'ctx>,
        run: FunctionValue<'ctx>,
        source: &str,
        line: u32,
    ) -> Debug<'ctx> {
        let path = Path::new(source);
        let file = path
            .file_name()
            .map_or_else(|| source.to_owned(), |f| f.to_string_lossy().into_owned());
        let dir = path
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| ".".to_owned());
        let version = cx.i32_type().const_int(3, false);
        m.add_basic_value_flag("Debug Info Version", FlagBehavior::Warning, version);
        let dwarf = cx.i32_type().const_int(5, false);
        m.add_basic_value_flag("Dwarf Version", FlagBehavior::Warning, dwarf);
        let (di, unit) = m.create_debug_info_builder(
            true,
            // DWARF has no code for Isu; C is the closest in what debuggers expect.
            DWARFSourceLanguage::C,
            &file,
            &dir,
            concat!("isu_backend_llvm ", env!("CARGO_PKG_VERSION")),
            true,
            "",
            0,
            "",
            DWARFEmissionKind::LineTablesOnly,
            0,
            false,
            false,
            "",
            "",
        );
        let ty = di.create_subroutine_type(unit.get_file(), None, &[], DIFlags::ZERO);
        let sub = di.create_function(
            unit.as_debug_info_scope(),
            "isu_run",
            None,
            unit.get_file(),
            line,
            ty,
            false,
            true,
            line,
            DIFlags::ZERO,
            true,
        );
        run.set_subprogram(sub);
        Debug {
            di,
            unit,
            scope: sub.as_debug_info_scope(),
            line,
        }
    }

    /// Instructions built from now on belong to the function's first line.
    pub fn at_function(&self, cx: &'ctx Context, b: &Builder<'ctx>) {
        let loc = self
            .di
            .create_debug_location(cx, self.line, 0, self.scope, None);
        b.set_current_debug_location(loc);
    }

    /// Instructions built from now on belong to the source at `span`.
    pub fn at(&self, cx: &'ctx Context, b: &Builder<'ctx>, span: Span) {
        if span.is_synthetic() {
            return;
        }
        let loc = self
            .di
            .create_debug_location(cx, span.line, span.col, self.scope, None);
        b.set_current_debug_location(loc);
    }

    pub fn finish(&self) {
        self.di.finalize();
    }
}
