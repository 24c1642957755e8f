//! Sorting with one copy of the sort in the program. The standard library's sort is several
//! kilobytes of WebAssembly per element type and comparison, and the browser downloads every
//! copy; code that runs in the browser orders things through these functions instead, which
//! sort `(key, index)` pairs with a single comparison function.

use std::cmp::Ordering;

/// The indices `0..n` ordered by `key` ascending (`f64::total_cmp`), equal keys in index order:
/// a stable order.
pub fn order_by(n: usize, key: &dyn Fn(usize) -> f64) -> Vec<usize> {
    // Through the three-key sort: one copy of the sort serves both.
    order_by_keys(n, &|i| [key(i), 0.0, 0.0])
}

/// The indices `0..n` ordered by `keys(i)` compared lexicographically, equal keys in index
/// order.
pub fn order_by_keys(n: usize, keys: &dyn Fn(usize) -> [f64; 3]) -> Vec<usize> {
    let mut keyed: Vec<([f64; 3], usize)> = (0..n).map(|i| (keys(i), i)).collect();
    keyed.sort_unstable_by(by_keys_then_index);
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// `items` stably sorted by `key` ascending.
pub fn sort_by_f64<T>(items: &mut Vec<T>, key: &dyn Fn(&T) -> f64) {
    let order = order_by(items.len(), &|i| key(&items[i]));
    permute(items, &order);
}

/// `items` stably sorted by `keys`, compared lexicographically.
pub fn sort_by_keys<T>(items: &mut Vec<T>, keys: &dyn Fn(&T) -> [f64; 3]) {
    let order = order_by_keys(items.len(), &|i| keys(&items[i]));
    permute(items, &order);
}

/// `values` sorted ascending (`f64::total_cmp`).
pub fn sort_f64(values: &mut [f64]) {
    values.sort_unstable_by(f64::total_cmp);
}

/// Rearranges `items` so that the item at `order[k]` comes `k`-th.
fn permute<T>(items: &mut Vec<T>, order: &[usize]) {
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().filter_map(|&i| slots[i].take()));
}

fn by_keys_then_index(a: &([f64; 3], usize), b: &([f64; 3], usize)) -> Ordering {
    a.0[0]
        .total_cmp(&b.0[0])
        .then(a.0[1].total_cmp(&b.0[1]))
        .then(a.0[2].total_cmp(&b.0[2]))
        .then(a.1.cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_stable_and_total() {
        let keys = [3.0, f64::NAN, 1.0, 3.0, f64::NEG_INFINITY, -0.0, 0.0];
        assert_eq!(
            order_by(keys.len(), &|i| keys[i]),
            vec![4, 5, 6, 2, 0, 3, 1]
        );
        let mut words = vec!["bb", "a", "ccc", "dd"];
        sort_by_f64(&mut words, &|w| w.len() as f64);
        assert_eq!(words, vec!["a", "bb", "dd", "ccc"]);
        let pairs = [
            [1.0, 2.0, 0.0],
            [1.0, 1.0, 5.0],
            [0.0, 9.0, 9.0],
            [1.0, 1.0, 5.0],
        ];
        assert_eq!(order_by_keys(4, &|i| pairs[i]), vec![2, 1, 3, 0]);
        let mut values = [2.0, -1.0, 0.5];
        sort_f64(&mut values);
        assert_eq!(values, [-1.0, 0.5, 2.0]);
    }

    #[test]
    fn agrees_with_the_standard_stable_sort() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let keys: Vec<f64> = (0..500)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % 37) as f64
            })
            .collect();
        let mut expected: Vec<usize> = (0..keys.len()).collect();
        expected.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
        assert_eq!(order_by(keys.len(), &|i| keys[i]), expected);
    }
}
