//! Deriving independent seeds from one: for threads, restarts, games and engines.

/// 2^64 divided by the golden ratio: multiplying a counter by it spreads consecutive
/// counters over the whole 64-bit range (Fibonacci hashing), so derived seeds differ in
/// many bits.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The seed of stream `stream` derived from `seed`; stream 0 is `seed` itself.
#[inline]
pub fn mix(seed: u64, stream: u64) -> u64 {
    seed ^ stream.wrapping_mul(GOLDEN_GAMMA)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_and_stream_zero_is_the_seed() {
        assert_eq!(mix(42, 0), 42);
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|s| mix(7, s)).collect();
        assert_eq!(seeds.len(), 1000);
    }
}
