//! Constants of heap types (`(const "x")`, `(const [1, 2])`, `(const {})`)
//! become immortal objects in the module's read-only data: a header whose
//! reference count is -1 (never counted or freed, copied before any write
//! like any shared value), then the slots (`runtime/isu_rt.h`).

use super::{bug, Lowering, Res};
use inkwell::module::Linkage;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, PointerValue};
use isu_plugin_api::{Literal, Type};

/// Map keys in the order the map keeps them (ints numerically, strings by bytes).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum MapKey {
    Int(i64),
    Str(String),
}

impl<'ctx> Lowering<'ctx, '_> {
    /// The address of the immortal object for `lit` of type `ty`.
    pub fn constant(&mut self, lit: &Literal, ty: &Type) -> Res<PointerValue<'ctx>> {
        let key = (lit.to_string(), ty.to_string());
        if let Some(p) = self.consts.get(&key) {
            return Ok(*p);
        }
        let (len, chars, data): (usize, usize, BasicValueEnum<'ctx>) = match (ty, lit) {
            (Type::String, Literal::Str(s)) => (
                s.len(),
                s.chars().count(),
                self.cx.const_string(s.as_bytes(), false).into(),
            ),
            (Type::Array(e), Literal::Array(items)) => {
                let mut slots = Vec::with_capacity(items.len());
                for item in items {
                    slots.push(self.slot_const(item, e)?);
                }
                let elem: BasicTypeEnum<'ctx> = match **e {
                    Type::Bool => self.cx.i8_type().into(),
                    Type::Int | Type::Float => self.cx.i64_type().into(),
                    _ => self.ptr_ty().into(),
                };
                (items.len(), 0, const_array(elem, &slots))
            }
            (Type::Map(k, v), Literal::Object(entries)) => {
                let mut pairs = Vec::with_capacity(entries.len());
                for (key, val) in entries {
                    let sort = match **k {
                        Type::Int => match key.parse::<i64>() {
                            Ok(i) => MapKey::Int(i),
                            Err(_) => return bug(format!("the map key {key:?} is not an int")),
                        },
                        _ => MapKey::Str(key.clone()),
                    };
                    let kv = match &sort {
                        MapKey::Int(i) => self.i64(*i).into(),
                        MapKey::Str(s) => self.constant(&Literal::Str(s.clone()), k)?.into(),
                    };
                    let vv = match **v {
                        // A bool in a map entry takes 8 bytes, as every value there.
                        Type::Bool => match val {
                            Literal::Bool(b) => self.i64(i64::from(*b)).into(),
                            _ => return bug(format!("{val} is not a bool")),
                        },
                        _ => self.slot_const(val, v)?,
                    };
                    pairs.push((sort, kv, vv));
                }
                pairs.sort_by(|a, b| a.0.cmp(&b.0));
                let entries: Vec<BasicValueEnum<'ctx>> = pairs
                    .into_iter()
                    .map(|(_, kv, vv)| self.cx.const_struct(&[kv, vv], false).into())
                    .collect();
                let entry_ty = match entries.first() {
                    Some(e) => e.get_type(),
                    None => self
                        .cx
                        .struct_type(
                            &[self.cx.i64_type().into(), self.cx.i64_type().into()],
                            false,
                        )
                        .into(),
                };
                (entries.len(), 0, const_array(entry_ty, &entries))
            }
            _ => return bug(format!("the constant {lit} is not a {ty}")),
        };
        let i64t = self.cx.i64_type();
        let header = [
            i64t.const_int(u64::MAX, true).into(),
            self.i64(len as i64).into(),
            self.i64(len as i64).into(),
            self.i64(chars as i64).into(),
            data,
        ];
        let init = self.cx.const_struct(&header, false);
        let g = self.m.add_global(init.get_type(), None, "isu_const");
        g.set_initializer(&init);
        g.set_constant(true);
        g.set_linkage(Linkage::Private);
        g.set_alignment(8);
        let p = g.as_pointer_value();
        self.consts.insert(key, p);
        Ok(p)
    }

    /// A slot of an array holding `lit` of type `ty`.
    fn slot_const(&mut self, lit: &Literal, ty: &Type) -> Res<BasicValueEnum<'ctx>> {
        match (ty, lit) {
            (Type::Int, Literal::Int(i)) => Ok(self.i64(*i).into()),
            // A float's slot holds the bits of its double.
            (Type::Float, _) => match lit.as_float() {
                Some(x) => Ok(self.i64(x.to_bits() as i64).into()),
                None => bug(format!("the constant {lit} is not a float")),
            },
            (Type::Bool, Literal::Bool(b)) => {
                Ok(self.cx.i8_type().const_int(u64::from(*b), false).into())
            }
            _ => Ok(self.constant(lit, ty)?.into()),
        }
    }
}

/// A constant array of `elem` values (all of that type).
fn const_array<'ctx>(
    elem: BasicTypeEnum<'ctx>,
    items: &[BasicValueEnum<'ctx>],
) -> BasicValueEnum<'ctx> {
    match elem {
        BasicTypeEnum::IntType(t) => t
            .const_array(&items.iter().map(|v| v.into_int_value()).collect::<Vec<_>>())
            .into(),
        BasicTypeEnum::PointerType(t) => t
            .const_array(
                &items
                    .iter()
                    .map(|v| v.into_pointer_value())
                    .collect::<Vec<_>>(),
            )
            .into(),
        BasicTypeEnum::StructType(t) => t
            .const_array(
                &items
                    .iter()
                    .map(|v| v.into_struct_value())
                    .collect::<Vec<_>>(),
            )
            .into(),
        BasicTypeEnum::ArrayType(t) => t
            .const_array(
                &items
                    .iter()
                    .map(|v| v.into_array_value())
                    .collect::<Vec<_>>(),
            )
            .into(),
        BasicTypeEnum::FloatType(t) => t.const_array(&[]).into(),
        BasicTypeEnum::VectorType(t) => t.const_array(&[]).into(),
        BasicTypeEnum::ScalableVectorType(t) => t.const_array(&[]).into(),
    }
}
