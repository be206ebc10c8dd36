//! The finder's search text of every agent, in one buffer: a keystroke scans
//! 100,000 of them, and reading one buffer forwards (which the hardware prefetches)
//! instead of 100,000 separate allocations is most of what the scan costs.

/// Haystacks by agent number, each a `&str`.
#[derive(Clone, Debug, Default)]
pub struct Haystacks {
    text: String,
    /// Where each haystack ends in `text`; it starts where the previous one ends.
    ends: Vec<usize>,
}

impl Haystacks {
    /// Room for `count` haystacks of `bytes` in all.
    pub fn with_capacity(count: usize, bytes: usize) -> Haystacks {
        Haystacks { text: String::with_capacity(bytes), ends: Vec::with_capacity(count) }
    }

    pub fn push(&mut self, haystack: &str) {
        self.push_pieces(&[haystack]);
    }

    /// Adds one haystack written as `pieces` one after the other.
    pub fn push_pieces(&mut self, pieces: &[&str]) {
        pieces.iter().for_each(|p| self.text.push_str(p));
        self.ends.push(self.text.len());
    }

    /// The bytes of all haystacks.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Haystack `n` as bytes: unlike `&self[n]`, slicing reads no byte of the text
    /// (a `str` slice checks that both ends are char boundaries), so a scan that
    /// starts inside a haystack never touches its beginning.
    pub fn bytes(&self, n: usize) -> &[u8] {
        &self.text.as_bytes()[self.start(n)..self.ends[n]]
    }

    fn start(&self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.ends[n - 1]
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|n| &self[n])
    }
}

impl std::ops::Index<usize> for Haystacks {
    type Output = str;

    fn index(&self, n: usize) -> &str {
        &self.text[self.start(n)..self.ends[n]]
    }
}

impl<S: AsRef<str>> FromIterator<S> for Haystacks {
    fn from_iter<I: IntoIterator<Item = S>>(items: I) -> Haystacks {
        let mut out = Haystacks::default();
        items.into_iter().for_each(|s| out.push(s.as_ref()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_haystack_reads_back() {
        let h: Haystacks = ["ab", "", "ünï c"].into_iter().collect();
        assert_eq!(h.len(), 3);
        assert_eq!((&h[0], &h[1], &h[2]), ("ab", "", "ünï c"));
        assert_eq!(h.iter().collect::<Vec<_>>(), vec!["ab", "", "ünï c"]);
        assert_eq!(h.bytes(2), "ünï c".as_bytes());
    }
}
