//! The fuzzy finder's state, without drawing: skim's V2 algorithm (fuzzy-matcher)
//! over each agent's precomputed haystack (name, framework, path, description).
//! When the query only grows, only the previous matches are searched again, each
//! from where its match of the shorter query ended; large candidate sets are
//! searched on all cores.

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use rayon::prelude::*;

use super::haystacks::Haystacks;

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
    /// Where the greedy match of `query` ends in each of `matches`, when known: the
    /// next character is searched from there.
    ends: Option<GreedyEnds>,
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
        Finder { query, matches, history: Vec::new(), ends: None, saved_filter, saved_selection }
    }

    /// Appends text to the query and narrows the matches.
    pub fn push(&mut self, matcher: &SkimMatcherV2, haystacks: &Haystacks, text: &str) {
        let before = self.query.clone();
        self.query.push_str(text);
        let candidates = self.matches.take();
        // The ends belong to the previous matches: without them there is nothing to
        // continue from.
        let ends = self.ends.take().filter(|_| candidates.is_some());
        let (matches, ends) = rank_continuing(matcher, haystacks, candidates.as_deref(), &self.query, ends);
        // Moved, not copied: the previous matches of 100,000 agents are 800 KB.
        self.history.push((before, candidates));
        self.matches = Some(matches);
        self.ends = ends;
    }

    pub fn backspace(&mut self, matcher: &SkimMatcherV2, haystacks: &Haystacks) {
        if self.query.pop().is_none() {
            return;
        }
        self.ends = None;
        match self.history.pop() {
            Some((query, matches)) if query == self.query => self.matches = matches,
            _ => self.rescore(matcher, haystacks),
        }
    }

    pub fn clear(&mut self) {
        self.query.clear();
        self.matches = None;
        self.ends = None;
        self.history.clear();
    }

    /// Scores the whole query again over every agent (a new snapshot arrived).
    pub fn rescore(&mut self, matcher: &SkimMatcherV2, haystacks: &Haystacks) {
        self.history.clear();
        self.ends = None;
        if !self.query.is_empty() {
            let (matches, ends) = rank_continuing(matcher, haystacks, None, &self.query, None);
            (self.matches, self.ends) = (Some(matches), ends);
        } else {
            self.matches = None;
        }
    }

    /// The filter to keep when the finder closes with Enter.
    pub fn into_filter(self) -> Option<Filter> {
        self.matches.map(|matches| Filter { query: self.query, matches })
    }
}

/// The agents among `candidates` (or all) that match `query`, best first; equal
/// scores keep catalog order.
///
/// For a lower-case ASCII query (skim then ignores case and matches greedily, so a
/// plain subsequence test decides exactly the same matches), skim scores only the
/// [`SKIM_TOP`] matches whose greedy match ends earliest — those matched in or near
/// the name, which the haystack starts with — and the rest follow in that order.
/// Calling skim costs about a third of a microsecond per agent, too much for 100,000
/// agents in one keystroke; nobody reads past the first screens of a ranking.
pub fn rank(matcher: &SkimMatcherV2, haystacks: &Haystacks, candidates: Option<&[usize]>, query: &str) -> Vec<usize> {
    rank_continuing(matcher, haystacks, candidates, query, None).0
}

/// Where the greedy match of `query` ends in each agent, indexed by agent:
/// [`NO_MATCH`] for every agent it did not match. Greedy matching is incremental:
/// the match of `query` + more continues from where the match of `query` ended.
#[derive(Clone, Debug)]
struct GreedyEnds {
    query: String,
    end: Vec<u32>,
}

impl GreedyEnds {
    /// Before any character: every candidate (or agent) matches, at its start.
    fn start(all: usize, candidates: Option<&[usize]>) -> GreedyEnds {
        let end = match candidates {
            None => vec![0; all],
            Some(c) => {
                let mut end = vec![NO_MATCH; all];
                c.iter().for_each(|&n| end[n] = 0);
                end
            }
        };
        GreedyEnds { query: String::new(), end }
    }
}

/// An end that marks no match in [`GreedyEnds`].
const NO_MATCH: u32 = u32::MAX;

/// [`rank`], and the greedy ends of its matches. With `from` (the ends of a prefix
/// of `query`, whose matches `candidates` are), each candidate is searched only for
/// the new characters, from where its match ended: one search per candidate
/// instead of one per query character.
fn rank_continuing(
    matcher: &SkimMatcherV2,
    haystacks: &Haystacks,
    candidates: Option<&[usize]>,
    query: &str,
    from: Option<GreedyEnds>,
) -> (Vec<usize>, Option<GreedyEnds>) {
    let lower = query.is_ascii() && !query.bytes().any(|b| b.is_ascii_uppercase());
    if !lower {
        let score = |n: usize| matcher.fuzzy_match(&haystacks[n], query).map(|s| (s, n));
        let scored = filter_map(haystacks.len(), candidates, score);
        return (by_score(scored), None);
    }
    let mut memo = match from {
        Some(e) if candidates.is_some() && query.starts_with(&e.query) && e.end.len() == haystacks.len() => e,
        _ => GreedyEnds::start(haystacks.len(), candidates),
    };
    let rest = &query.as_bytes()[memo.query.len()..];
    // Haystacks are short (a name, a path, a cut description): far below 4 GiB.
    let advance = |n: usize, at: &mut u32| {
        if *at != NO_MATCH {
            *at = continue_end(haystacks.bytes(n), *at as usize, rest).map_or(NO_MATCH, |e| e as u32);
        }
    };
    match candidates {
        // In place and in agent order rather than in the candidates' (ranked) order:
        // the haystacks lie in one buffer in agent order, so the scan reads memory
        // forwards, and the pool's threads allocate nothing (see `filter_map`).
        Some(c) if c.len() < PARALLEL_FROM => c.iter().for_each(|&n| advance(n, &mut memo.end[n])),
        None if haystacks.len() < PARALLEL_FROM => memo.end.iter_mut().enumerate().for_each(|(n, at)| advance(n, at)),
        _ => memo.end.par_iter_mut().with_min_len(PARALLEL_FROM / 4).enumerate().for_each(|(n, at)| advance(n, at)),
    }
    memo.query = query.to_string();
    let end = &memo.end;
    let matched: Vec<usize> = match candidates {
        Some(c) => c.iter().copied().filter(|&n| end[n] != NO_MATCH).collect(),
        None => (0..haystacks.len()).filter(|&n| end[n] != NO_MATCH).collect(),
    };
    let mut out = by_end(&matched, end);
    // Skim needs only the prefix up to the end of the greedy match: same score.
    let top = out.len().min(SKIM_TOP);
    let score = |&n: &usize| matcher.fuzzy_match(haystacks[n].get(..end[n] as usize)?, query).map(|s| (s, n));
    let mut scored: Vec<Option<(i64, usize)>> = Vec::new();
    out[..top].par_iter().with_min_len(SKIM_TOP / 4).map(score).collect_into_vec(&mut scored);
    let ranked = by_score(scored.into_iter().flatten().collect());
    let kept = ranked.len();
    out.iter_mut().zip(ranked).for_each(|(slot, n)| *slot = n);
    out.drain(kept..top);
    (out, Some(memo))
}

/// `matched` ordered by where their match ends (ends are small numbers); within one
/// end, they keep their order (catalog or previous ranking).
fn by_end(matched: &[usize], end: &[u32]) -> Vec<usize> {
    counting_sort(matched, END_BUCKETS, |n| (end[n] as usize).min(END_BUCKETS - 1)).0
}

/// `items` ordered by `bucket` (below `buckets`), stable, in two passes and one
/// allocation: what sorts 100,000 agents per keystroke. Also each bucket's count.
pub(super) fn counting_sort(items: &[usize], buckets: usize, bucket: impl Fn(usize) -> usize) -> (Vec<usize>, Vec<usize>) {
    let mut next = vec![0usize; buckets];
    items.iter().for_each(|&n| next[bucket(n)] += 1);
    let counts = next.clone();
    let mut sum = 0;
    for slot in next.iter_mut() {
        (*slot, sum) = (sum, sum + *slot);
    }
    let mut out = vec![0; items.len()];
    for &n in items {
        let b = bucket(n);
        out[next[b]] = n;
        next[b] += 1;
    }
    (out, counts)
}

/// Match ends past this share the last bucket.
const END_BUCKETS: usize = 512;

/// How many matches skim ranks per keystroke.
pub const SKIM_TOP: usize = 2000;

fn filter_map<T: Send>(
    all: usize,
    candidates: Option<&[usize]>,
    f: impl Fn(usize) -> Option<T> + Sync + Send,
) -> Vec<T> {
    // In parallel, every result goes into one buffer allocated here, so the pool's
    // threads allocate nothing: their heaps are the loader's (it parses on the same
    // pool), left fragmented by a load of 100,000 files, and growing vectors there
    // (rayon's `collect` of a filter) cost more than the matching itself.
    let mut slots: Vec<Option<T>> = Vec::new();
    match candidates {
        Some(c) if c.len() < PARALLEL_FROM => return c.iter().filter_map(|&n| f(n)).collect(),
        None if all < PARALLEL_FROM => return (0..all).filter_map(f).collect(),
        Some(c) => c.par_iter().map(|&n| f(n)).collect_into_vec(&mut slots),
        None => (0..all).into_par_iter().map(&f).collect_into_vec(&mut slots),
    }
    slots.into_iter().flatten().collect()
}

fn by_score(mut scored: Vec<(i64, usize)>) -> Vec<usize> {
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, n)| n).collect()
}

/// Where the greedy match of `needle` (ASCII, lower case) in `hay` ends, ignoring
/// ASCII case: the byte after its last character (always a char boundary, since the
/// matched byte is ASCII); `None` when it does not occur in order.
#[cfg(test)]
fn subsequence_end(hay: &[u8], needle: &[u8]) -> Option<usize> {
    continue_end(hay, 0, needle)
}

/// [`subsequence_end`] of `needle` in `hay`, searching from byte `at` (where the
/// match of the characters before `needle` ended).
fn continue_end(hay: &[u8], mut at: usize, needle: &[u8]) -> Option<usize> {
    for &c in needle {
        // SIMD search for either case of the next character.
        at += memchr::memchr2(c, c.to_ascii_uppercase(), hay.get(at..)?)? + 1;
    }
    Some(at)
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

    fn hay() -> Haystacks {
        ["reviewer openhands .agents/reviewer.md reviews code", "planner openhands x.md plans", "rev-tool kimi a.yaml"]
            .into_iter()
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
    fn ranking_on_the_matched_prefix_scores_as_on_the_whole_haystack() {
        let m = ranker();
        let h: Haystacks =
            ["code-reviewer openhands .agents/x.md reviews code", "Ünïcode reviewer kimi a.yaml", "rv tsugite r/v.md"]
                .into_iter()
                .collect();
        for query in ["rev", "cr", "rv", "x", "Rev", "ünï"] {
            let full: Vec<(i64, usize)> =
                (0..h.len()).filter_map(|n| m.fuzzy_match(&h[n], query).map(|s| (s, n))).collect();
            let mut expected = full.clone();
            expected.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let expected: Vec<usize> = expected.into_iter().map(|(_, n)| n).collect();
            assert_eq!(rank(&m, &h, None, query), expected, "query {query}");
        }
        assert_eq!(subsequence_end(b"abcabc", b"ca"), Some(4));
        assert_eq!(subsequence_end(b"ABC", b"ac"), Some(3));
        assert_eq!(subsequence_end(b"abc", b"x"), None);
    }

    #[test]
    fn past_the_skim_ranked_top_matches_follow_by_where_they_match() {
        let m = ranker();
        // Many matches late in the description, a few in the name: the name matches
        // are ranked by skim at the top, every match is kept.
        let h: Haystacks = (0..SKIM_TOP + 50)
            .map(|i| format!("agent{i} kimi a.yaml the planner of x"))
            .chain((0..5).map(|i| format!("planner{i} kimi p.yaml")))
            .collect();
        let ranked = rank(&m, &h, None, "plan");
        assert_eq!(ranked.len(), h.len());
        let mut head: Vec<usize> = ranked[..5].to_vec();
        head.sort();
        assert_eq!(head, (SKIM_TOP + 50..SKIM_TOP + 55).collect::<Vec<_>>());
        let mut all = ranked.clone();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), h.len(), "no agent twice");
    }

    #[test]
    fn a_growing_query_continues_each_match_and_ranks_as_from_scratch() {
        let m = ranker();
        // Enough agents for the parallel path, with repeated letters so a greedy
        // match can end at several places.
        let h: Haystacks = (0..PARALLEL_FROM + 300)
            .map(|i| format!("agent-{i} kimi team{}/a{}.yaml reviews and re-reviews code", i % 97, i % 13))
            .collect();
        for query in ["review", "team42", "aaa", "rvw", "zz"] {
            let mut f = Finder::open(None, None);
            for (n, c) in query.char_indices() {
                f.push(&m, &h, &c.to_string());
                let typed = &query[..n + c.len_utf8()];
                assert_eq!(f.matches.as_deref(), Some(&rank(&m, &h, None, typed)[..]), "query {typed}");
            }
            // Backspace forgets the ends; typing again continues correctly.
            f.backspace(&m, &h);
            f.push(&m, &h, "e");
            let typed = format!("{}e", &query[..query.len() - 1]);
            assert_eq!(f.matches.as_deref(), Some(&rank(&m, &h, None, &typed)[..]), "query {typed}");
        }
    }

    #[test]
    fn matched_chars_are_char_indices() {
        let m = SkimMatcherV2::default();
        assert_eq!(matched_chars(&m, "ünï planner", "pl"), vec![4, 5]);
        assert!(matched_chars(&m, "abc", "").is_empty());
    }
}
