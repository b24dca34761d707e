//! Struct values: the fields in declaration order, each with its name, so
//! that a value converts to JSON and shows in traces without its program.
//! Equality and order are field by field, which is structural equality for
//! two values of one struct.

use super::value::Value;
use std::rc::Rc;

/// The fields of one struct value.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    fields: Vec<(Rc<str>, Value)>,
}

impl Record {
    /// A value with these fields, in declaration order.
    pub fn new(fields: Vec<(Rc<str>, Value)>) -> Record {
        Record { fields }
    }

    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }

    /// The value of field `name`, to write it.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.fields
            .iter_mut()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }

    /// The fields with their values, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.fields.iter().map(|(n, v)| (&**n, v))
    }

    /// The number of fields.
    pub fn count(&self) -> usize {
        self.fields.len()
    }
}
