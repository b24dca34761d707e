//! How the layers combine: in order, each layer's `disable` takes plugins of
//! the earlier layers out, then each of its plugins is added, replacing an
//! earlier one of the same name. A plugin taken out or replaced is never
//! loaded.

use super::{Entry, Layer, LayerStatus, Place, State};

/// The plugins of every layer, combined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Merged {
    /// The plugins to load, in layer order, each layer's in file order.
    pub active: Vec<Entry>,
    /// The plugins a later layer replaced or disabled.
    pub shadowed: Vec<Shadowed>,
    /// `disable` names that matched no plugin of an earlier layer.
    pub unused_disables: Vec<UnusedDisable>,
}

/// A plugin a later layer replaced or disabled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadowed {
    pub entry: Entry,
    pub by: ShadowedBy,
}

/// What shadows a plugin: a later layer's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShadowedBy {
    /// A plugin of the same name.
    Override {
        layer: Layer,
        place: Place,
        line: usize,
    },
    /// A `disable` naming it.
    Disable {
        layer: Layer,
        place: Place,
        line: usize,
    },
}

impl ShadowedBy {
    /// `overridden by line 2 of /home/u/.config/isu/plugins.toml (user)`.
    pub fn describe(&self) -> String {
        match self {
            ShadowedBy::Override { layer, place, line } => {
                format!("overridden by {}", super::origin(*layer, place, *line))
            }
            ShadowedBy::Disable { layer, place, line } => {
                format!("disabled by {}", super::origin(*layer, place, *line))
            }
        }
    }

    /// `overridden` or `disabled`.
    pub fn status(&self) -> &'static str {
        match self {
            ShadowedBy::Override { .. } => "overridden",
            ShadowedBy::Disable { .. } => "disabled",
        }
    }
}

/// A `disable` name with no plugin of an earlier layer to take out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusedDisable {
    pub name: String,
    pub layer: Layer,
    pub place: Place,
    pub line: usize,
}

/// Combines the layers that were read, lowest first.
pub fn merge(layers: &[LayerStatus]) -> Merged {
    let mut out = Merged::default();
    for status in layers {
        let State::Read(m) = &status.state else {
            continue;
        };
        for d in &m.disable {
            match out.active.iter().position(|e| e.name == d.name) {
                Some(i) => {
                    let entry = out.active.remove(i);
                    out.shadowed.push(Shadowed {
                        entry,
                        by: ShadowedBy::Disable {
                            layer: m.layer,
                            place: m.place.clone(),
                            line: d.line,
                        },
                    });
                }
                None => out.unused_disables.push(UnusedDisable {
                    name: d.name.clone(),
                    layer: m.layer,
                    place: m.place.clone(),
                    line: d.line,
                }),
            }
        }
        for e in &m.entries {
            if let Some(i) = out.active.iter().position(|a| a.name == e.name) {
                let entry = out.active.remove(i);
                out.shadowed.push(Shadowed {
                    entry,
                    by: ShadowedBy::Override {
                        layer: e.layer,
                        place: e.place.clone(),
                        line: e.line,
                    },
                });
            }
            out.active.push(e.clone());
        }
    }
    out
}
