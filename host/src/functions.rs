//! The functions a program may call: the standard functions (the language's
//! table, `isu_lang::stdlib`) and those of the loaded packs (`math.GCD`),
//! each with its signature. The validator types calls with this table, the
//! interpreter calls through it, and `isu build` gets each pack function's
//! lowering for its target from it.
//!
//! The plugin loader (the `plugins` module) fills the table with the packs it
//! loaded; a test or an embedder adds packs linked into the process
//! ([`Functions::add_local`]). Nothing here knows how a pack's code got into
//! the process, so the phases that use the table do not depend on the
//! loader.

use isu_lang::stdlib::{self, StdFn};
use isu_plugin_api::iir::Program;
use isu_plugin_api::{
    features, BackendCode, BackendInfo, Literal, Lowering, Pack, PackInfo, PluginDiagnostic,
    Scalar, Signature,
};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Where a pack's code lives: what the table needs of it.
pub trait PackCode: Send + Sync {
    /// Calls the function at `index` in the pack's info, named `function`
    /// within the pack, within the run's size limit `max_size`
    /// ([`Pack::call_index`]). A runtime error comes back without a step.
    fn call(
        &self,
        index: usize,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic>;

    /// [`PackCode::call`] of a function whose parameters and result are
    /// all scalars, on the scalars themselves ([`Pack::call_scalars`]).
    fn call_scalars(
        &self,
        index: usize,
        function: &str,
        args: &[Scalar],
        max_size: u64,
    ) -> Result<Scalar, PluginDiagnostic>;

    /// The definition of `function` for `target`: `None` when the pack has
    /// none, an error when the pack failed to answer.
    fn lower(&self, function: &str, target: &str) -> Result<Option<String>, PluginDiagnostic>;
}

/// A pack linked into the process.
struct Local(Arc<dyn Pack + Send + Sync>);

impl PackCode for Local {
    fn call(
        &self,
        index: usize,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        self.0.call_index(index, function, args, max_size)
    }

    fn call_scalars(
        &self,
        index: usize,
        function: &str,
        args: &[Scalar],
        max_size: u64,
    ) -> Result<Scalar, PluginDiagnostic> {
        self.0.call_scalars(index, function, args, max_size)
    }

    fn lower(&self, function: &str, target: &str) -> Result<Option<String>, PluginDiagnostic> {
        Ok(self.0.lower(function, target))
    }
}

/// One pack function.
#[derive(Clone)]
pub struct PackFn {
    /// `math.GCD`.
    pub name: String,
    pub signature: Signature,
    pub doc: String,
    /// The runtime codes it fails with, each with when.
    pub errors: Vec<String>,
    /// The name within the pack: `GCD`.
    local: String,
    /// The version of its pack (its info's), which a backend's own
    /// lowerings are keyed by.
    pack_version: String,
    /// Its position in the pack's info, which the pack is called by: found
    /// once, when the pack is added, so no call looks the name up.
    index: usize,
    /// Whether every parameter and the result are scalars, so that a call
    /// crosses by [`PackFn::call_scalars`]: found once, with the position.
    scalar: bool,
    code: Arc<dyn PackCode>,
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
    /// Calls the function within the run's size limit. A runtime error comes
    /// back without a step; the caller names the calling step.
    pub fn call(&self, args: &[Literal], max_size: u64) -> Result<Literal, PluginDiagnostic> {
        self.code.call(self.index, &self.local, args, max_size)
    }

    /// Whether every parameter and the result are scalars (int, float,
    /// bool): then the function is called by [`PackFn::call_scalars`].
    #[inline]
    pub fn is_scalar(&self) -> bool {
        self.scalar
    }

    /// [`PackFn::call`] of a function whose parameters and result are all
    /// scalars, with the scalars themselves: nothing is built or converted
    /// on the way (plugin API 2.3's `call_scalar` across the boundary).
    #[inline]
    pub fn call_scalars(&self, args: &[Scalar], max_size: u64) -> Result<Scalar, PluginDiagnostic> {
        self.code
            .call_scalars(self.index, &self.local, args, max_size)
    }

    /// The function's definition for `target`, `None` when the pack has none.
    pub fn lower(&self, target: &str) -> Result<Option<String>, PluginDiagnostic> {
        self.code.lower(&self.local, target)
    }

    /// Its pack's namespace: `math`.
    pub fn namespace(&self) -> &str {
        self.name.split_once('.').map_or("", |(ns, _)| ns)
    }

    /// The version of its pack.
    pub fn pack_version(&self) -> &str {
        &self.pack_version
    }

    /// The function's definition for `target` of the backend `backend`:
    /// the backend's own, when it carries one for this pack at this version
    /// (`BackendInfo::lowerings`), else the pack's; `None` when neither has
    /// one, an error when the pack failed to answer.
    pub fn lowering_for(
        &self,
        target: &str,
        backend: &BackendInfo,
    ) -> Result<Option<String>, PluginDiagnostic> {
        match backend.lowering_of(self.namespace(), &self.pack_version, &self.local, target) {
            Some(own) => Ok(Some(own.to_owned())),
            None => self.lower(target),
        }
    }
}

/// What a call's function name resolves to.
#[derive(Debug, Clone, Copy)]
pub enum Callable<'f> {
    Std(&'static StdFn),
    Pack(&'f PackFn),
}

/// The functions a program may call: the standard ones, and those of every
/// loaded pack, sorted by full name.
#[derive(Debug, Clone, Default)]
pub struct Functions {
    packs: BTreeMap<String, PackFn>,
    /// Namespaces of packs a manifest lists that are not loaded, each with
    /// why and how to enable it, for the error of a call of one.
    unavailable: BTreeMap<String, String>,
}

impl Functions {
    /// Adds the functions of a pack (its info already checked: the
    /// signatures parse) whose code is `code`.
    pub fn add_pack(&mut self, info: &PackInfo, code: Arc<dyn PackCode>) {
        self.unavailable.remove(&info.namespace);
        for (index, f) in info.functions.iter().enumerate() {
            let Ok(signature) = Signature::parse(&f.signature) else {
                continue;
            };
            let name = format!("{}.{}", info.namespace, f.name);
            let scalar = signature.is_scalar();
            self.packs.insert(
                name.clone(),
                PackFn {
                    name,
                    signature,
                    doc: f.doc.clone(),
                    errors: f.errors.clone(),
                    local: f.name.clone(),
                    pack_version: info.version.clone(),
                    index,
                    scalar,
                    code: code.clone(),
                },
            );
        }
    }

    /// Adds the functions of a pack linked into the process. Functions whose
    /// signature does not parse are left out.
    pub fn add_local(&mut self, pack: Arc<dyn Pack + Send + Sync>) {
        let info = pack.info();
        self.add_pack(&info, Arc::new(Local(pack)));
    }

    /// The standard functions and those of `packs`, linked into the process
    /// (as a backend's tests link the packs that ship with isu).
    pub fn linked<P: Pack + Send + Sync + 'static>(
        packs: impl IntoIterator<Item = P>,
    ) -> Functions {
        let mut table = Functions::default();
        for pack in packs {
            table.add_local(Arc::new(pack));
        }
        table
    }

    /// Records that the pack of `namespace` is not loaded, `why` saying why
    /// and how to enable it (the first reason recorded stays).
    pub fn add_unavailable(&mut self, namespace: &str, why: String) {
        if !self.has_namespace(namespace) {
            self.unavailable.entry(namespace.to_owned()).or_insert(why);
        }
    }

    /// Why the pack of `namespace` is not loaded and how to enable it, when a
    /// manifest lists one that is not.
    pub fn unavailable(&self, namespace: &str) -> Option<&str> {
        self.unavailable.get(namespace).map(String::as_str)
    }

    /// Whether a loaded pack has this namespace.
    pub fn has_namespace(&self, namespace: &str) -> bool {
        self.in_namespace(namespace).next().is_some()
    }

    /// The functions of the loaded pack of `namespace`, sorted by name.
    pub fn in_namespace<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = &'a PackFn> {
        self.packs.values().filter(move |f| {
            f.name
                .split_once('.')
                .is_some_and(|(ns, _)| ns == namespace)
        })
    }

    /// The function a call of `name` calls: a standard function, or a pack's.
    pub fn resolve(&self, name: &str) -> Option<Callable<'_>> {
        match stdlib::lookup(name) {
            Some(f) => Some(Callable::Std(f)),
            None => self.get(name).map(Callable::Pack),
        }
    }

    /// The pack function of this full name (`math.GCD`).
    pub fn get(&self, name: &str) -> Option<&PackFn> {
        self.packs.get(name)
    }

    /// Whether no pack function is loaded.
    pub fn is_empty(&self) -> bool {
        self.packs.is_empty()
    }

    /// Every pack function, sorted by full name.
    pub fn iter(&self) -> impl Iterator<Item = &PackFn> {
        self.packs.values()
    }

    /// The lowerings for `target` of the pack functions `program` calls,
    /// each the backend's own or the pack's ([`PackFn::lowering_for`]), or
    /// why not: for each function without one, an `unsupported_feature`
    /// naming the pack and the function (the program is unsupported on the
    /// target, the backend has not failed), and for each whose pack failed
    /// to answer, the pack's failure.
    pub fn lowerings(
        &self,
        program: &Program,
        target: &str,
        backend: &BackendInfo,
    ) -> Result<Vec<Lowering>, Vec<PluginDiagnostic>> {
        let mut out = Vec::new();
        let mut missing = Vec::new();
        for name in calls(program) {
            let Some(f) = self.get(&name) else {
                continue;
            };
            match f.lowering_for(target, backend) {
                Ok(Some(source)) => out.push(Lowering {
                    function: name,
                    target: target.to_owned(),
                    source,
                }),
                Ok(None) => missing.push(
                    PluginDiagnostic::backend(
                        BackendCode::UnsupportedFeature,
                        format!("the pack function {name} has no lowering for target `{target}`"),
                    )
                    .with_hint(format!(
                        "the `{}` pack (version {}) has none for `{target}`, and the `{}` backend carries none for it (`BackendInfo::lowerings`)",
                        f.namespace(),
                        f.pack_version,
                        backend.name
                    )),
                ),
                Err(d) => missing.push(PluginDiagnostic {
                    message: format!(
                        "the pack of {name} failed to give its lowering for `{target}`: {}",
                        d.message
                    ),
                    ..d
                }),
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
