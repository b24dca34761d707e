//! Map values: a hash table for finding a key in O(1), with an ordered view
//! for everything the semantics orders (`MAP_KEYS`, results, comparisons,
//! shown values), built when first asked for and kept until a new key comes.
//!
//! A key's value lives in the table's bucket beside the key, so a search
//! touches one place in memory, and a second search of the same key (a
//! check, then the store) finds it in the cache. A map never loses a key (no
//! standard function removes one), so the ordered view only has to be built
//! again after a new key.

use super::key::Key;
use super::value::Value;
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher of map keys: a multiply-rotate over 64-bit words (the first
/// eight bytes of a string key are already one, see [`Key`]) and a
/// splitmix64 finish, so that keys alike in their low bits (multiples of a
/// power of two) still spread over the table.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl KeyHasher {
    #[inline(always)]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline(always)]
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }

    #[inline(always)]
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }

    #[inline(always)]
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

type Index = HashMap<Key, Value, BuildHasherDefault<KeyHasher>>;

/// A map: keys (ints or strings, one kind per map) to values.
#[derive(Clone, Default)]
pub struct Table {
    entries: Index,
    /// The keys in ascending order, once asked for.
    order: OnceCell<Box<[Key]>>,
}

impl Table {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    pub fn get(&self, k: &Key) -> Option<&Value> {
        self.entries.get(k)
    }

    #[inline]
    pub fn contains_key(&self, k: &Key) -> bool {
        self.entries.contains_key(k)
    }

    #[inline]
    pub fn get_mut(&mut self, k: &Key) -> Option<&mut Value> {
        self.entries.get_mut(k)
    }

    /// Sets the value of `k`, adding the key when it is new.
    pub fn insert(&mut self, k: Key, v: Value) {
        match self.entries.get_mut(&k) {
            Some(old) => *old = v,
            None => {
                self.entries.insert(k, v);
                self.order.take();
            }
        }
    }

    /// The keys in ascending order.
    fn order(&self) -> &[Key] {
        self.order.get_or_init(|| {
            let mut keys: Vec<Key> = self.entries.keys().cloned().collect();
            keys.sort_unstable();
            keys.into()
        })
    }

    /// The entries in ascending key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Key, &Value)> + '_ {
        self.order()
            .iter()
            .filter_map(|k| self.entries.get_key_value(k))
    }

    /// The keys in ascending order.
    pub fn keys(&self) -> impl Iterator<Item = &Key> + '_ {
        self.order().iter()
    }

    /// The entries in no particular order (for what does not depend on it,
    /// such as sizes).
    pub fn entries(&self) -> impl Iterator<Item = (&Key, &Value)> + '_ {
        self.entries.iter()
    }

    /// The first `n` entries in key order, without sorting the whole map
    /// when its order is not known yet (shown values, which a trace may
    /// write at every step of a loop that adds keys).
    pub fn first(&self, n: usize) -> Vec<(&Key, &Value)> {
        if let Some(order) = self.order.get() {
            return order
                .iter()
                .take(n)
                .filter_map(|k| self.entries.get_key_value(k))
                .collect();
        }
        let mut all: Vec<(&Key, &Value)> = self.entries.iter().collect();
        let by_key = |a: &(&Key, &Value), b: &(&Key, &Value)| a.0.cmp(b.0);
        if n < all.len() {
            all.select_nth_unstable_by(n, by_key);
            all.truncate(n);
        }
        all.sort_unstable_by(by_key);
        all
    }
}

impl FromIterator<(Key, Value)> for Table {
    fn from_iter<I: IntoIterator<Item = (Key, Value)>>(entries: I) -> Table {
        let mut t = Table::default();
        for (k, v) in entries {
            t.insert(k, v);
        }
        t
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Two maps are equal when they hold the same keys with equal values,
/// whatever the order the keys came in.
impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.len() == other.len()
            && self
                .entries()
                .all(|(k, v)| other.get(k).is_some_and(|w| w == v))
    }
}

impl Eq for Table {}

impl PartialOrd for Table {
    fn partial_cmp(&self, other: &Table) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Entry by entry in key order (a proper prefix first), as an ordered map's.
impl Ord for Table {
    fn cmp(&self, other: &Table) -> Ordering {
        self.iter().cmp(other.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_table(keys: &[i64]) -> Table {
        keys.iter().map(|&k| (Key::Int(k), Value::Int(k))).collect()
    }

    #[test]
    fn order_is_by_key_whatever_the_arrival() {
        let mut t = int_table(&[5, -3, 10, 0]);
        let keys: Vec<&Key> = t.keys().collect();
        assert_eq!(
            keys,
            [&Key::Int(-3), &Key::Int(0), &Key::Int(5), &Key::Int(10)]
        );
        // A new key after the order was built takes its place in it.
        t.insert(Key::Int(1), Value::Bool(true));
        let keys: Vec<i64> = t
            .keys()
            .map(|k| match k {
                Key::Int(i) => *i,
                Key::Str(_) => 0,
            })
            .collect();
        assert_eq!(keys, [-3, 0, 1, 5, 10]);
        // An existing key keeps its place and takes the new value.
        t.insert(Key::Int(5), Value::Int(50));
        assert_eq!(t.len(), 5);
        assert_eq!(t.get(&Key::Int(5)), Some(&Value::Int(50)));
        assert!(!t.contains_key(&Key::Int(7)));
    }

    #[test]
    fn first_entries_match_the_order() {
        let keys: Vec<i64> = (0..100).map(|i| (i * 37) % 101).collect();
        let t = int_table(&keys);
        let fresh: Vec<&Key> = t.first(10).into_iter().map(|(k, _)| k).collect();
        let all: Vec<&Key> = t.keys().take(10).collect();
        assert_eq!(fresh, all);
        let cached: Vec<&Key> = t.first(10).into_iter().map(|(k, _)| k).collect();
        assert_eq!(cached, all);
        assert_eq!(int_table(&[2, 1]).first(10).len(), 2);
    }

    #[test]
    fn equality_and_order_ignore_arrival() {
        assert_eq!(int_table(&[1, 2, 3]), int_table(&[3, 1, 2]));
        assert_ne!(int_table(&[1, 2]), int_table(&[1, 2, 3]));
        assert!(int_table(&[1, 2]) < int_table(&[1, 2, 3]));
        assert!(int_table(&[1, 3]) > int_table(&[2, 1, 0]));
        let mut t = int_table(&[1]);
        t.insert(Key::Int(1), Value::Int(2));
        assert_ne!(t, int_table(&[1]));
    }

    #[test]
    fn keys_alike_in_their_low_bits_spread() {
        let hash = |k: i64| {
            let mut h = KeyHasher::default();
            h.write_u64(k as u64);
            h.finish()
        };
        let buckets: std::collections::BTreeSet<u64> =
            (0..64).map(|i| hash(i << 20) & 63).collect();
        assert!(buckets.len() > 32, "{} buckets of 64", buckets.len());
    }
}
