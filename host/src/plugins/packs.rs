//! A loaded pack plugin as the code behind the functions of
//! [`crate::functions::Functions`]: calls and lowerings go through its
//! abi_stable root module, and a panic of the plugin is an error.

use crate::functions::PackCode;
use isu_plugin_api::abi::ForeignPack;
use isu_plugin_api::{Literal, Pack, PluginDiagnostic, Scalar};

impl PackCode for ForeignPack {
    fn call(
        &self,
        index: usize,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        Pack::call_index(self, index, function, args, max_size)
    }

    fn call_scalars(
        &self,
        index: usize,
        function: &str,
        args: &[Scalar],
        max_size: u64,
    ) -> Result<Scalar, PluginDiagnostic> {
        Pack::call_scalars(self, index, function, args, max_size)
    }

    fn lower(&self, function: &str, target: &str) -> Result<Option<String>, PluginDiagnostic> {
        self.try_lower(function, target)
    }
}
