//! The fuzzy finder's state, without drawing: skim's V2 algorithm (fuzzy-matcher)
//! over each agent's precomputed haystack (name, framework, path, description).
//! When the query only grows, only the previous matches are searched again; large
//! candidate sets are scored on all cores.

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use rayon::prelude::*;

/// Below this many candidates, scoring on one thread is faster than splitting.
const PARALLEL_FROM: usize = 4096;

/// The matcher used for ranking: skim's V2 scoring, told to take its linear path
/// (greedy alignment with the same bonuses) instead of the full score matrix. The
/// matrix costs a few microseconds per agent, which over 100,000 agents is far more
/// than one frame; the rows on screen are still highlighted with the full matcher.
pub fn ranker() -> SkimMatcherV2 {
    SkimMatcherV2::default().element_limit(1)
}

/// A kept filter: the query and the agents it matched, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    pub query: String,
    pub matches: Vec<usize>,
}

/// The open finder: the query being typed, its live matches, and what to restore on
/// Esc.
#[derive(Clone, Debug)]
pub struct Finder {
    pub query: String,
    /// `None` while the query is empty (everything matches).
    pub matches: Option<Vec<usize>>,
    /// Results of shorter queries, to step back on Backspace without re-scoring.
    history: Vec<(String, Option<Vec<usize>>)>,
    pub saved_filter: Option<Filter>,
    pub saved_selection: Option<String>,
}

impl Finder {
    pub fn open(saved_filter: Option<Filter>, saved_selection: Option<String>) -> Finder {
        // Reopening edits the kept query, like a search box.
        let (query, matches) = match &saved_filter {
            Some(f) => (f.query.clone(), Some(f.matches.clone())),
            None => (String::new(), None),
        };
        Finder { query, matches, history: Vec::new(), saved_filter, saved_selection }
    }

    /// Appends text to the query and narrows the matches.
    pub fn push(&mut self, matcher: &SkimMatcherV2, haystacks: &[String], text: &str) {
        self.history.push((self.query.clone(), self.matches.clone()));
        self.query.push_str(text);
        let candidates = self.matches.take();
        self.matches = Some(rank(matcher, haystacks, candidates.as_deref(), &self.query));
    }

    pub fn backspace(&mut self, matcher: &SkimMatcherV2, haystacks: &[String]) {
        if self.query.pop().is_none() {
            return;
        }
        match self.history.pop() {
            Some((query, matches)) if query == self.query => self.matches = matches,
            _ => self.rescore(matcher, haystacks),
        }
    }

    pub fn clear(&mut self) {
        self.query.clear();
        self.matches = None;
        self.history.clear();
    }

    /// Scores the whole query again over every agent (a new snapshot arrived).
    pub fn rescore(&mut self, matcher: &SkimMatcherV2, haystacks: &[String]) {
        self.history.clear();
        self.matches = if self.query.is_empty() { None } else { Some(rank(matcher, haystacks, None, &self.query)) };
    }

    /// The filter to keep when the finder closes with Enter.
    pub fn into_filter(self) -> Option<Filter> {
        self.matches.map(|matches| Filter { query: self.query, matches })
    }
}

/// The agents among `candidates` (or all) that match `query`, best first; equal
/// scores keep catalog order.
pub fn rank(matcher: &SkimMatcherV2, haystacks: &[String], candidates: Option<&[usize]>, query: &str) -> Vec<usize> {
    let folded: Vec<u8> = query.bytes().map(|b| b.to_ascii_lowercase()).collect();
    let score = |n: usize| {
        let hay = &haystacks[n];
        // Most agents fail a plain subsequence test; skim is only asked about the rest.
        if query.is_ascii() && !is_subsequence(hay.as_bytes(), &folded) {
            return None;
        }
        matcher.fuzzy_match(hay, query).map(|s| (s, n))
    };
    let mut scored: Vec<(i64, usize)> = match candidates {
        Some(c) if c.len() < PARALLEL_FROM => c.iter().filter_map(|&n| score(n)).collect(),
        Some(c) => c.par_iter().filter_map(|&n| score(n)).collect(),
        None if haystacks.len() < PARALLEL_FROM => (0..haystacks.len()).filter_map(score).collect(),
        None => (0..haystacks.len()).into_par_iter().filter_map(score).collect(),
    };
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, n)| n).collect()
}

/// Whether `needle` (ASCII, lower case) occurs in order in `hay`, ignoring ASCII case.
fn is_subsequence(hay: &[u8], needle: &[u8]) -> bool {
    let mut want = needle.iter();
    let mut next = want.next();
    for &b in hay {
        match next {
            None => return true,
            Some(&c) if b.to_ascii_lowercase() == c => next = want.next(),
            _ => {}
        }
    }
    next.is_none()
}

/// Which characters (by index into `haystack`) the query matched, for highlighting.
pub fn matched_chars(matcher: &SkimMatcherV2, haystack: &str, query: &str) -> Vec<usize> {
    if query.is_empty() {
        return Vec::new();
    }
    matcher.fuzzy_indices(haystack, query).map(|(_, idx)| idx).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hay() -> Vec<String> {
        ["reviewer openhands .agents/reviewer.md reviews code", "planner openhands x.md plans", "rev-tool kimi a.yaml"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn narrowing_backspace_and_clear() {
        let m = SkimMatcherV2::default();
        let h = hay();
        let mut f = Finder::open(None, None);
        f.push(&m, &h, "rev");
        let mut got = f.matches.clone().expect("matches");
        got.sort();
        assert_eq!(got, vec![0, 2]);
        f.push(&m, &h, "iew");
        assert_eq!(f.matches.as_deref(), Some(&[0][..]));
        f.backspace(&m, &h);
        f.backspace(&m, &h);
        f.backspace(&m, &h);
        assert_eq!(f.query, "rev");
        assert_eq!(f.matches.as_ref().map(Vec::len), Some(2));
        f.push(&m, &h, "zzz");
        assert_eq!(f.matches.as_deref(), Some(&[][..]));
        f.clear();
        assert!(f.matches.is_none());
    }

    #[test]
    fn matched_chars_are_char_indices() {
        let m = SkimMatcherV2::default();
        assert_eq!(matched_chars(&m, "ünï planner", "pl"), vec![4, 5]);
        assert!(matched_chars(&m, "abc", "").is_empty());
    }
}
