//! The elements of an array value, stored compactly when they allow it: an
//! array of ints as `Vec<i64>` and an array of bools as `Vec<bool>`, any
//! other array as `Vec<Value>`. The form is a matter of storage only:
//! equality, order and every operation see the same sequence of values
//! whatever the forms involved, and a value of another kind written into a
//! compact array turns it into the general form.

use super::value::Value;
use std::cmp::Ordering;

#[derive(Debug, Clone)]
pub enum Items {
    Vals(Vec<Value>),
    Ints(Vec<i64>),
    Bools(Vec<bool>),
}

/// An element as [`Items::elem`] gives it: borrowed from a general array,
/// or a scalar copied out of a compact one.
#[derive(Debug, Clone, Copy)]
pub enum Elem<'a> {
    Ref(&'a Value),
    Int(i64),
    Bool(bool),
}

impl Elem<'_> {
    pub fn to_value(self) -> Value {
        match self {
            Elem::Ref(v) => v.clone(),
            Elem::Int(i) => Value::Int(i),
            Elem::Bool(b) => Value::Bool(b),
        }
    }
}

impl Default for Items {
    fn default() -> Items {
        Items::Vals(Vec::new())
    }
}

impl Items {
    /// The items of `values`, compact when every one is an int (or a bool).
    pub fn from_values(values: Vec<Value>) -> Items {
        match values.first() {
            Some(Value::Int(_)) if values.iter().all(|v| matches!(v, Value::Int(_))) => {
                Items::Ints(values.iter().filter_map(int_of).collect())
            }
            Some(Value::Bool(_)) if values.iter().all(|v| matches!(v, Value::Bool(_))) => {
                Items::Bools(values.iter().filter_map(bool_of).collect())
            }
            _ => Items::Vals(values),
        }
    }

    /// `n` copies of `v`.
    pub fn repeat(v: &Value, n: usize) -> Items {
        match v {
            Value::Int(i) => Items::Ints(vec![*i; n]),
            Value::Bool(b) => Items::Bools(vec![*b; n]),
            other => Items::Vals(vec![other.clone(); n]),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Items::Vals(v) => v.len(),
            Items::Ints(v) => v.len(),
            Items::Bools(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `i`, if there is one.
    #[inline]
    pub fn elem(&self, i: usize) -> Option<Elem<'_>> {
        match self {
            Items::Vals(v) => v.get(i).map(Elem::Ref),
            Items::Ints(v) => v.get(i).map(|&x| Elem::Int(x)),
            Items::Bools(v) => v.get(i).map(|&x| Elem::Bool(x)),
        }
    }

    /// The element at `i` as a value.
    pub fn get(&self, i: usize) -> Option<Value> {
        self.elem(i).map(Elem::to_value)
    }

    /// The element at `i` of a general array, to change in place (the way
    /// into a nested array or map); `None` for a compact array, whose
    /// elements are scalars.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Value> {
        match self {
            Items::Vals(v) => v.get_mut(i),
            Items::Ints(_) | Items::Bools(_) => None,
        }
    }

    /// Replaces the element at `i`; false when there is none.
    #[inline(always)]
    pub fn set(&mut self, i: usize, v: Value) -> bool {
        if i >= self.len() {
            return false;
        }
        match (&mut *self, v) {
            (Items::Ints(xs), Value::Int(x)) => xs[i] = x,
            (Items::Bools(xs), Value::Bool(x)) => xs[i] = x,
            (Items::Vals(xs), v) => xs[i] = v,
            (_, v) => {
                let mut vals = std::mem::take(self).into_vals();
                if let Some(cell) = vals.get_mut(i) {
                    *cell = v;
                }
                *self = Items::Vals(vals);
            }
        }
        true
    }

    pub fn push(&mut self, v: Value) {
        match (&mut *self, v) {
            (Items::Ints(xs), Value::Int(x)) => xs.push(x),
            (Items::Bools(xs), Value::Bool(x)) => xs.push(x),
            (Items::Vals(xs), Value::Int(x)) if xs.is_empty() => *self = Items::Ints(vec![x]),
            (Items::Vals(xs), Value::Bool(x)) if xs.is_empty() => *self = Items::Bools(vec![x]),
            (Items::Vals(xs), v) => xs.push(v),
            (_, v) => {
                let mut vals = std::mem::take(self).into_vals();
                vals.push(v);
                *self = Items::Vals(vals);
            }
        }
    }

    /// Drops the last element; false when there is none.
    pub fn pop(&mut self) -> bool {
        match self {
            Items::Vals(v) => v.pop().is_some(),
            Items::Ints(v) => v.pop().is_some(),
            Items::Bools(v) => v.pop().is_some(),
        }
    }

    /// The elements `lo..hi`; the caller checked `lo <= hi <= len`.
    pub fn slice(&self, lo: usize, hi: usize) -> Items {
        match self {
            Items::Vals(v) => Items::Vals(v.get(lo..hi).unwrap_or_default().to_vec()),
            Items::Ints(v) => Items::Ints(v.get(lo..hi).unwrap_or_default().to_vec()),
            Items::Bools(v) => Items::Bools(v.get(lo..hi).unwrap_or_default().to_vec()),
        }
    }

    /// The elements in reverse order.
    pub fn reversed(&self) -> Items {
        fn back<T: Clone>(v: &[T]) -> Vec<T> {
            v.iter().rev().cloned().collect()
        }
        match self {
            Items::Vals(v) => Items::Vals(back(v)),
            Items::Ints(v) => Items::Ints(back(v)),
            Items::Bools(v) => Items::Bools(back(v)),
        }
    }

    /// A copy with room for `extra` more elements.
    pub fn with_room(&self, extra: usize) -> Items {
        fn grow<T: Clone>(v: &[T], extra: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(v.len() + extra);
            out.extend_from_slice(v);
            out
        }
        match self {
            Items::Vals(v) => Items::Vals(grow(v, extra)),
            Items::Ints(v) => Items::Ints(grow(v, extra)),
            Items::Bools(v) => Items::Bools(grow(v, extra)),
        }
    }

    /// Appends the elements of `other`.
    pub fn extend(&mut self, other: &Items) {
        match (&mut *self, other) {
            (Items::Ints(xs), Items::Ints(ys)) => xs.extend_from_slice(ys),
            (Items::Bools(xs), Items::Bools(ys)) => xs.extend_from_slice(ys),
            (Items::Vals(xs), Items::Vals(ys)) => xs.extend_from_slice(ys),
            (xs, ys) if xs.is_empty() => *xs = ys.clone(),
            (_, ys) if ys.is_empty() => {}
            (xs, ys) => {
                let mut vals = std::mem::take(xs).into_vals();
                vals.extend(ys.iter());
                *xs = Items::Vals(vals);
            }
        }
    }

    /// The elements as values, in order.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The elements in the general form.
    fn into_vals(self) -> Vec<Value> {
        match self {
            Items::Vals(v) => v,
            Items::Ints(v) => v.into_iter().map(Value::Int).collect(),
            Items::Bools(v) => v.into_iter().map(Value::Bool).collect(),
        }
    }
}

fn int_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

fn bool_of(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        _ => None,
    }
}

impl PartialEq for Items {
    fn eq(&self, other: &Items) -> bool {
        match (self, other) {
            (Items::Vals(x), Items::Vals(y)) => x == y,
            (Items::Ints(x), Items::Ints(y)) => x == y,
            (Items::Bools(x), Items::Bools(y)) => x == y,
            (x, y) => x.len() == y.len() && x.iter().eq(y.iter()),
        }
    }
}

impl Eq for Items {}

impl PartialOrd for Items {
    fn partial_cmp(&self, other: &Items) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Lexicographic, element by element (a proper prefix first).
impl Ord for Items {
    fn cmp(&self, other: &Items) -> Ordering {
        match (self, other) {
            (Items::Vals(x), Items::Vals(y)) => x.cmp(y),
            (Items::Ints(x), Items::Ints(y)) => x.cmp(y),
            (Items::Bools(x), Items::Bools(y)) => x.cmp(y),
            (x, y) => x.iter().cmp(y.iter()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(xs: &[i64]) -> Items {
        Items::Ints(xs.to_vec())
    }

    fn vals(xs: &[i64]) -> Items {
        Items::Vals(xs.iter().map(|&x| Value::Int(x)).collect())
    }

    #[test]
    fn forms_do_not_change_meaning() {
        assert_eq!(ints(&[1, 2]), vals(&[1, 2]));
        assert_ne!(ints(&[1, 2]), vals(&[1]));
        assert_eq!(ints(&[]), Items::Bools(Vec::new()));
        assert_eq!(ints(&[1, 3]).cmp(&vals(&[1, 2, 9])), Ordering::Greater);
        assert_eq!(ints(&[1]).cmp(&vals(&[1, 0])), Ordering::Less);
        assert!(matches!(
            Items::from_values(vec![Value::Int(1)]),
            Items::Ints(_)
        ));
        assert!(matches!(
            Items::from_values(vec![Value::Bool(true)]),
            Items::Bools(_)
        ));
        assert!(matches!(
            Items::from_values(vec![Value::Int(1), Value::Bool(true)]),
            Items::Vals(_)
        ));
    }

    #[test]
    fn writes_keep_or_generalize_the_form() {
        let mut xs = Items::default();
        xs.push(Value::Int(4));
        assert!(
            matches!(xs, Items::Ints(_)),
            "an empty array takes the form of its first element"
        );
        xs.push(Value::Int(5));
        assert!(xs.set(0, Value::Int(7)));
        assert!(!xs.set(2, Value::Int(7)));
        assert_eq!(xs, ints(&[7, 5]));
        xs.push(Value::str("x"));
        assert!(matches!(xs, Items::Vals(_)));
        assert_eq!(xs.get(2), Some(Value::str("x")));
        assert_eq!(xs.get(0), Some(Value::Int(7)));
        let mut b = Items::repeat(&Value::Bool(true), 3);
        assert!(b.set(1, Value::Int(0)));
        assert_eq!(
            b.iter().collect::<Vec<_>>(),
            [Value::Bool(true), Value::Int(0), Value::Bool(true)]
        );
        assert!(b.get_mut(0).is_some());
        assert!(ints(&[1]).get_mut(0).is_none());
    }

    #[test]
    fn slices_extends_and_pops() {
        let mut xs = ints(&[1, 2, 3]);
        assert_eq!(xs.slice(1, 3), ints(&[2, 3]));
        xs.extend(&vals(&[4]));
        assert_eq!(xs, ints(&[1, 2, 3, 4]));
        let mut e = Items::default();
        e.extend(&ints(&[9]));
        assert!(matches!(e, Items::Ints(_)));
        assert!(xs.pop());
        assert_eq!(xs.len(), 3);
        assert!(!Items::default().pop());
        assert_eq!(xs.with_room(5), xs);
    }
}
