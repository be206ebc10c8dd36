//! Natural order of names: runs of digits compare as numbers, so `alert-103` comes
//! before `alert-1003`. Every list agentry shows (`list`, the explorer, `--json`) is
//! in this order.

use std::cmp::Ordering;

/// Compares two names in natural order. Digit runs compare by value (then by how
/// many leading zeros they carry, fewer first); other text compares without regard
/// to ASCII case (`Plan` between `explore` and `review`); names equal in that order
/// fall back to plain byte order, so the order is total.
pub fn cmp(a: &str, b: &str) -> Ordering {
    folded(a, b).then_with(|| a.as_bytes().cmp(b.as_bytes()))
}

fn folded(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        if x[i].is_ascii_digit() && y[j].is_ascii_digit() {
            let (ei, ej) = (run_end(x, i), run_end(y, j));
            let (zi, zj) = (skip_zeros(x, i, ei), skip_zeros(y, j, ej));
            // Fewer significant digits is the smaller number; then digit by digit.
            let by_value = (ei - zi).cmp(&(ej - zj)).then_with(|| x[zi..ei].cmp(&y[zj..ej]));
            let ord = by_value.then_with(|| (zi - i).cmp(&(zj - j)));
            if ord != Ordering::Equal {
                return ord;
            }
            (i, j) = (ei, ej);
        } else {
            match x[i].to_ascii_lowercase().cmp(&y[j].to_ascii_lowercase()) {
                Ordering::Equal => (i, j) = (i + 1, j + 1),
                other => return other,
            }
        }
    }
    (x.len() - i).cmp(&(y.len() - j))
}

fn run_end(s: &[u8], from: usize) -> usize {
    from + s[from..].iter().take_while(|b| b.is_ascii_digit()).count()
}

fn skip_zeros(s: &[u8], from: usize, end: usize) -> usize {
    // A run of zeros only keeps its last zero as its value.
    let mut k = from;
    while k + 1 < end && s[k] == b'0' {
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::cmp;
    use std::cmp::Ordering::*;

    #[test]
    fn numbers_compare_as_numbers() {
        let mut names = vec!["oh-alert-1003", "oh-alert-103", "oh-alert-2", "oh-alert", "a10b2", "a10b10", "a9", "x007", "x7", "x07", "Plan", "explore", "review", "Explore"];
        names.sort_by(|a, b| cmp(a, b));
        assert_eq!(
            names,
            ["a9", "a10b2", "a10b10", "Explore", "explore", "oh-alert", "oh-alert-2", "oh-alert-103", "oh-alert-1003", "Plan", "review", "x7", "x07", "x007"]
        );
    }

    #[test]
    fn the_order_is_total_and_consistent() {
        let names = ["", "0", "00", "1", "01", "a", "A", "a1", "a01", "a1b", "é2", "é10", "99999999999999999999999", "100000000000000000000000"];
        for a in names {
            assert_eq!(cmp(a, a), Equal);
            for b in names {
                assert_eq!(cmp(a, b), cmp(b, a).reverse(), "{a} {b}");
                if a != b {
                    assert_ne!(cmp(a, b), Equal, "{a} {b}");
                }
                for c in names {
                    if cmp(a, b) == Less && cmp(b, c) == Less {
                        assert_eq!(cmp(a, c), Less, "{a} {b} {c}");
                    }
                }
            }
        }
    }
}
