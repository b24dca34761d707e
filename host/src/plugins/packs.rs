//! The functions of the loaded packs, by full name (`math.GCD`): what the
//! validator types calls with, what the interpreter calls, and where
//! `isu build` gets each function's lowering for its target.

use isu_plugin_api::abi::ForeignPack;
use isu_plugin_api::features;
use isu_plugin_api::iir::Program;
use isu_plugin_api::{Literal, Lowering, Pack, PackInfo, PluginDiagnostic, Signature};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Where a pack function's code lives.
#[derive(Clone)]
enum Provider {
    /// A loaded plugin library.
    Foreign(Arc<ForeignPack>),
    /// A pack linked into the process (tests, embedders).
    Local(Arc<dyn Pack + Send + Sync>),
}

/// One pack function.
#[derive(Clone)]
pub struct PackFn {
    /// `math.GCD`.
    pub name: String,
    pub signature: Signature,
    pub doc: String,
    /// The name within the pack: `GCD`.
    local: String,
    provider: Provider,
}

impl fmt::Debug for PackFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PackFn")
            .field("name", &self.name)
            .field("signature", &self.signature.to_string())
            .finish_non_exhaustive()
    }
}

impl PackFn {
    /// Calls the function. A runtime error comes back without a step; the
    /// caller names the calling step.
    pub fn call(&self, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        match &self.provider {
            Provider::Foreign(p) => p.call(&self.local, args),
            Provider::Local(p) => p.call(&self.local, args),
        }
    }

    /// The function's definition for `target`, `None` when the pack has none.
    pub fn lower(&self, target: &str) -> Result<Option<String>, PluginDiagnostic> {
        match &self.provider {
            Provider::Foreign(p) => p.try_lower(&self.local, target),
            Provider::Local(p) => Ok(p.lower(&self.local, target)),
        }
    }
}

/// The functions of every loaded pack, sorted by full name.
#[derive(Debug, Clone, Default)]
pub struct PackFunctions {
    fns: BTreeMap<String, PackFn>,
}

impl PackFunctions {
    /// Adds the functions of a loaded pack plugin (its info already checked:
    /// the signatures parse).
    pub fn add_pack(&mut self, pack: Arc<ForeignPack>, info: &PackInfo) {
        self.add(info, Provider::Foreign(pack));
    }

    /// Adds the functions of a pack linked into the process. Functions whose
    /// signature does not parse are left out.
    pub fn add_local(&mut self, pack: Arc<dyn Pack + Send + Sync>) {
        let info = pack.info();
        self.add(&info, Provider::Local(pack));
    }

    fn add(&mut self, info: &PackInfo, provider: Provider) {
        for f in &info.functions {
            let Ok(signature) = Signature::parse(&f.signature) else {
                continue;
            };
            let name = format!("{}.{}", info.namespace, f.name);
            self.fns.insert(
                name.clone(),
                PackFn {
                    name,
                    signature,
                    doc: f.doc.clone(),
                    local: f.name.clone(),
                    provider: provider.clone(),
                },
            );
        }
    }

    /// The function of this full name (`math.GCD`).
    pub fn get(&self, name: &str) -> Option<&PackFn> {
        self.fns.get(name)
    }

    pub fn is_empty(&self) -> bool {
        self.fns.is_empty()
    }

    /// Every function, sorted by full name.
    pub fn iter(&self) -> impl Iterator<Item = &PackFn> {
        self.fns.values()
    }

    /// The lowerings for `target` of the pack functions `program` calls, or,
    /// for each function without one (or whose pack failed), why not.
    pub fn lowerings(&self, program: &Program, target: &str) -> Result<Vec<Lowering>, Vec<String>> {
        let mut out = Vec::new();
        let mut missing = Vec::new();
        for name in calls(program) {
            let Some(f) = self.get(&name) else {
                continue;
            };
            match f.lower(target) {
                Ok(Some(source)) => out.push(Lowering {
                    function: name,
                    target: target.to_owned(),
                    source,
                }),
                Ok(None) => missing.push(format!(
                    "the pack function {name} has no lowering for target `{target}`"
                )),
                Err(d) => missing.push(format!(
                    "the pack of {name} failed to give its lowering for `{target}`: {}",
                    d.message
                )),
            }
        }
        if missing.is_empty() {
            Ok(out)
        } else {
            Err(missing)
        }
    }
}

/// The names of every function `program` calls, sorted.
fn calls(program: &Program) -> Vec<String> {
    features::used_by(program)
        .iter()
        .filter_map(|f| f.strip_prefix("call:"))
        .map(str::to_owned)
        .collect()
}
