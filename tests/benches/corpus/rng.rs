//! A tiny deterministic PRNG (xoshiro256**, seeded through splitmix64) with the few
//! draws the generator needs, named after Python's `random` methods it stands in
//! for. Self-written so the benches need no new dependency; the same seed gives the
//! same workspace on every machine and every build.

pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng { s: [next(), next(), next(), next()] }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1).
    pub fn random(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [0, n); `n` must be positive.
    pub fn below(&mut self, n: usize) -> usize {
        // The modulo bias is below 2^-40 for the sizes used here.
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in [lo, hi], both included (Python's `randint`).
    pub fn randint(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    pub fn choice<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `k` distinct items in random order (Python's `sample`).
    pub fn sample<T: Clone>(&mut self, items: &[T], k: usize) -> Vec<T> {
        let mut pool: Vec<T> = items.to_vec();
        let k = k.min(pool.len());
        for i in 0..k {
            let j = i + self.below(pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }

    /// Log-normal with the given mean and deviation of the underlying normal
    /// (Python's `lognormvariate`), the normal drawn by Box–Muller.
    pub fn lognormal(&mut self, mu: f64, sigma: f64) -> f64 {
        let u1 = 1.0 - self.random(); // in (0, 1]: the logarithm stays finite
        let u2 = self.random();
        let normal = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        (mu + sigma * normal).exp()
    }
}
