//! The program's own texts (field keys and rules such as `"framework default"`) by
//! number: a packed field names a fixed text in a byte or two, and unpacks it as the
//! same `&'static str`. Readers look up without a lock; the table is filled once per
//! text, by the first thread that packs it.
//!
//! The table is the process's, not a load's: the texts it numbers are the program's
//! own, as lasting as the process, and a number written by one load is read by every
//! later snapshot and diff (fields are shared across snapshots), so one numbering is
//! the only one all of them can read.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use foldhash::fast::FixedState;

/// Far more than the program's literals; a text beyond it is packed as its bytes.
const CAPACITY: usize = 4096;

static TEXTS: [OnceLock<&'static str>; CAPACITY] = [const { OnceLock::new() }; CAPACITY];
/// How many of [`TEXTS`] are set; taken to add one.
static FILLED: Mutex<usize> = Mutex::new(0);

/// Slots of [`RECENT`]: far more than the texts one framework packs.
const RECENT_SLOTS: usize = 256;

thread_local! {
    /// The last text packed in each slot (by address), with its number: most labels
    /// are found here, without hashing.
    static RECENT: RefCell<[(usize, usize, u32); RECENT_SLOTS]> = const { RefCell::new([(0, 0, 0); RECENT_SLOTS]) };
    /// This thread's numbers by address: each text is looked up once in [`TEXTS`].
    static NUMBERS: RefCell<HashMap<(usize, usize), u32, FixedState>> =
        const { RefCell::new(HashMap::with_hasher(FixedState::with_seed(0))) };
}

/// The number of `text`, given it one if it has none; `None` when the table is full.
pub fn number(text: &'static str) -> Option<u32> {
    let address = (text.as_ptr() as usize, text.len());
    // Literals lie close together: a multiplication spreads their addresses.
    let slot = ((address.0 ^ address.1 << 48).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) % RECENT_SLOTS;
    let (a, len, n) = RECENT.with_borrow(|recent| recent[slot]);
    if (a, len) == address {
        return Some(n);
    }
    let n = NUMBERS.with_borrow_mut(|numbers| {
        if let Some(&n) = numbers.get(&address) {
            return Some(n);
        }
        let n = register(text)?;
        numbers.insert(address, n);
        Some(n)
    })?;
    RECENT.with_borrow_mut(|recent| recent[slot] = (address.0, address.1, n));
    Some(n)
}

fn register(text: &'static str) -> Option<u32> {
    let mut filled = FILLED.lock().unwrap_or_else(|e| e.into_inner());
    let same = |slot: &OnceLock<&'static str>| slot.get().is_some_and(|t| std::ptr::eq(*t, text));
    if let Some(n) = TEXTS[..*filled].iter().position(same) {
        return Some(n as u32);
    }
    if *filled == CAPACITY {
        return None;
    }
    let n = *filled;
    let _ = TEXTS[n].set(text);
    *filled += 1;
    Some(n as u32)
}

/// The text numbered `n` ([`number`] gave it).
pub fn text(n: u32) -> &'static str {
    TEXTS.get(n as usize).and_then(OnceLock::get).copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_keeps_its_number_across_threads() {
        static KEY: &str = "a key of the statics test";
        let n = number(KEY).unwrap();
        assert_eq!(number(KEY), Some(n));
        assert_eq!(std::thread::spawn(|| number(KEY)).join().unwrap(), Some(n));
        assert!(std::ptr::eq(text(n), KEY));
        let other = number("another text of the statics test").unwrap();
        assert_ne!(other, n);
    }
}
