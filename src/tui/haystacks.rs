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
    pub fn push(&mut self, haystack: &str) {
        self.text.push_str(haystack);
        self.ends.push(self.text.len());
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|n| &self[n])
    }
}

impl std::ops::Index<usize> for Haystacks {
    type Output = str;

    fn index(&self, n: usize) -> &str {
        let start = if n == 0 { 0 } else { self.ends[n - 1] };
        &self.text[start..self.ends[n]]
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
    }
}
