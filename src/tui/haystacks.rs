//! The finder's search text of every agent, in one buffer: a keystroke scans
//! 100,000 of them, and reading one buffer forwards (which the hardware prefetches)
//! instead of 100,000 separate allocations is most of what the scan costs.

use std::sync::Arc;

/// Haystacks by agent number, each a `&str`: chunks in agent order (one per
/// framework's report, shared by the indexes of successive snapshots that hold it).
#[derive(Clone, Debug, Default)]
pub struct Haystacks {
    chunks: Vec<Arc<Chunk>>,
    /// The number of the first haystack of each chunk, then the total.
    firsts: Vec<usize>,
}

/// Consecutive haystacks in one buffer.
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    text: String,
    /// Where each haystack ends in `text`; it starts where the previous one ends.
    ends: Vec<usize>,
}

impl Chunk {
    /// Room for `count` haystacks of `bytes` in all.
    pub fn with_capacity(count: usize, bytes: usize) -> Chunk {
        Chunk { text: String::with_capacity(bytes), ends: Vec::with_capacity(count) }
    }

    /// Adds the haystack `write` appends to the text.
    pub fn push_with(&mut self, write: impl FnOnce(&mut String)) {
        write(&mut self.text);
        self.ends.push(self.text.len());
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    fn start(&self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.ends[n - 1]
        }
    }
}

impl Haystacks {
    pub fn from_chunks(chunks: Vec<Arc<Chunk>>) -> Haystacks {
        let mut firsts = Vec::with_capacity(chunks.len() + 1);
        let mut total = 0;
        for c in &chunks {
            firsts.push(total);
            total += c.len();
        }
        firsts.push(total);
        Haystacks { chunks, firsts }
    }

    pub fn len(&self) -> usize {
        self.firsts.last().copied().unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The chunk holding haystack `n`, and `n` within it.
    fn locate(&self, n: usize) -> (&Chunk, usize) {
        let c = self.firsts.partition_point(|&first| first <= n) - 1;
        (&self.chunks[c], n - self.firsts[c])
    }

    /// Haystack `n` as bytes: unlike `&self[n]`, slicing reads no byte of the text
    /// (a `str` slice checks that both ends are char boundaries), so a scan that
    /// starts inside a haystack never touches its beginning.
    pub fn bytes(&self, n: usize) -> &[u8] {
        let (chunk, i) = self.locate(n);
        &chunk.text.as_bytes()[chunk.start(i)..chunk.ends[i]]
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|n| &self[n])
    }
}

impl std::ops::Index<usize> for Haystacks {
    type Output = str;

    fn index(&self, n: usize) -> &str {
        let (chunk, i) = self.locate(n);
        &chunk.text[chunk.start(i)..chunk.ends[i]]
    }
}

impl<S: AsRef<str>> FromIterator<S> for Haystacks {
    fn from_iter<I: IntoIterator<Item = S>>(items: I) -> Haystacks {
        let mut chunk = Chunk::default();
        items.into_iter().for_each(|s| chunk.push_with(|text| text.push_str(s.as_ref())));
        Haystacks::from_chunks(vec![Arc::new(chunk)])
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
        let parts: Vec<Arc<Chunk>> = [vec!["ab"], vec![], vec!["", "ünï c"]]
            .into_iter()
            .map(|c| {
                let mut chunk = Chunk::default();
                c.into_iter().for_each(|s| chunk.push_with(|t| t.push_str(s)));
                Arc::new(chunk)
            })
            .collect();
        let chunked = Haystacks::from_chunks(parts);
        assert_eq!(chunked.iter().collect::<Vec<_>>(), vec!["ab", "", "ünï c"]);
        assert_eq!(chunked.bytes(2), "ünï c".as_bytes());
    }
}
