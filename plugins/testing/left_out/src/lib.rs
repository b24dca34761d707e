//! A test fixture: a library that holds no plugin, only the reason its build
//! left the plugin out and the fix, as the LLVM backend's library does where
//! LLVM 19 is missing. The loader must refuse it as the plugin's file
//! missing (`missing_file`), with that reason and fix.

isu_plugin_api::export_left_out!(
    "the fixture backend was left out of this build: it needs a tool this test lacks",
    "install the fixture's tool",
);
