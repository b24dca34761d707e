//! Constants of heap types (`(const "x")`, `(const [1, 2])`, `(const {})`)
//! become immortal objects in the data segment: never counted or freed, and
//! copied before any write like any shared value.

use super::{bug, Lowering, Res};
use crate::layout::IMMORTAL;
use isu_plugin_api::{Literal, Type};

impl Lowering<'_> {
    /// The address of the static object for `lit` of type `ty`.
    pub fn static_value(&mut self, lit: &Literal, ty: &Type) -> Res<u32> {
        let key = (lit.to_string(), ty.to_string());
        if let Some(&at) = self.consts.get(&key) {
            return Ok(at);
        }
        let at = match (ty, lit) {
            (Type::String, Literal::Str(s)) => {
                let mut b = header(s.len(), s.chars().count());
                b.extend_from_slice(s.as_bytes());
                self.mb.static_bytes(&b)
            }
            (Type::Array(e), Literal::Array(items)) => {
                let mut slots = Vec::with_capacity(items.len());
                for item in items {
                    slots.push(self.slot_bits(item, e)?);
                }
                let mut b = header(items.len(), 0);
                let width = 1usize << crate::layout::slot_shift(e);
                for s in slots {
                    b.extend_from_slice(&s.to_le_bytes()[..width]);
                }
                self.mb.static_bytes(&b)
            }
            (Type::Map(k, v), Literal::Object(entries)) => {
                let mut pairs: Vec<(MapKey, u64, u64)> = Vec::with_capacity(entries.len());
                for (key, val) in entries {
                    let (sort, bits) = match **k {
                        Type::Int => match key.parse::<i64>() {
                            Ok(i) => (MapKey::Int(i), i as u64),
                            Err(_) => return bug(format!("the map key {key:?} is not an int")),
                        },
                        _ => {
                            let s = Literal::Str(key.clone());
                            (MapKey::Str(key.clone()), self.slot_bits(&s, k)?)
                        }
                    };
                    pairs.push((sort, bits, self.slot_bits(val, v)?));
                }
                pairs.sort_by(|a, b| a.0.cmp(&b.0));
                let mut b = header(pairs.len(), 0);
                for (_, kb, vb) in pairs {
                    b.extend_from_slice(&kb.to_le_bytes());
                    b.extend_from_slice(&vb.to_le_bytes());
                }
                self.mb.static_bytes(&b)
            }
            _ => return bug(format!("the constant {lit} is not a {ty}")),
        };
        self.consts.insert(key, at);
        Ok(at)
    }

    /// The 8 bytes of a slot holding `lit` of type `ty`.
    fn slot_bits(&mut self, lit: &Literal, ty: &Type) -> Res<u64> {
        match (ty, lit) {
            (Type::Int, Literal::Int(i)) => Ok(*i as u64),
            (Type::Float, _) => match lit.as_float() {
                Some(x) => Ok(x.to_bits()),
                None => bug(format!("the constant {lit} is not a float")),
            },
            (Type::Bool, Literal::Bool(b)) => Ok(u64::from(*b)),
            _ => self.static_value(lit, ty).map(u64::from),
        }
    }
}

/// Map keys in the order the map keeps them (ints numerically, strings by bytes).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum MapKey {
    Int(i64),
    Str(String),
}

fn header(len: usize, chars: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(16 + len);
    b.extend_from_slice(&IMMORTAL.to_le_bytes());
    b.extend_from_slice(&(len as u32).to_le_bytes());
    b.extend_from_slice(&(len as u32).to_le_bytes());
    b.extend_from_slice(&(chars as u32).to_le_bytes());
    b
}
