//! Confidence intervals by the bootstrap over queries: resample the queries with replacement,
//! take the mean of each resample, and read the interval off the resamples' means.

/// How many resamples an interval is read from.
pub const RESAMPLES: usize = 2000;

/// A mean with its 95% interval (the 2.5th and 97.5th percentiles of the resampled means).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The mean over all queries.
    pub mean: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Interval {
    /// Half the interval's width: the `±` of `mean ± half_width`.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// SplitMix64: a small generator with a fixed seed, so an interval is the same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index below `n` (n > 0), by Lemire's multiply-shift (bias below 2^-32 for the
    /// sizes here).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// The mean of `values` with its 95% bootstrap interval; `values` are per-query figures (a
/// query's recall, or the difference between two strategies on the same query, which gives a
/// paired interval). An empty slice gives zeros.
pub fn interval(values: &[f64]) -> Interval {
    let n = values.len();
    if n == 0 {
        return Interval {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let mut rng = SplitMix(0x5EED_B007_57A9_0F0F);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let total: f64 = (0..n).filter_map(|_| values.get(rng.below(n))).sum();
            total / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let index = ((RESAMPLES - 1) as f64 * q).round() as usize;
        means.get(index).copied().unwrap_or(mean)
    };
    Interval {
        mean,
        low: at(0.025),
        high: at(0.975),
    }
}

/// The paired difference `a - b` over the same queries (the first `min(len)` of each), with
/// its interval: whether `a` gains on `b` beyond the noise of which queries happen to be in
/// the set.
pub fn paired(a: &[f64], b: &[f64]) -> Interval {
    let differences: Vec<f64> = a.iter().zip(b).map(|(a, b)| a - b).collect();
    interval(&differences)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_has_no_width_and_the_mean_lies_inside() {
        let constant = interval(&[0.5; 40]);
        assert_eq!(
            (constant.low, constant.mean, constant.high),
            (0.5, 0.5, 0.5)
        );
        let values: Vec<f64> = (0..200).map(|i| f64::from(i % 2)).collect();
        let half = interval(&values);
        assert!(half.low < 0.5 && 0.5 < half.high, "{half:?}");
        // The binomial standard error is 0.035: the 95% interval is about ±0.07.
        assert!((half.half_width() - 0.07).abs() < 0.015, "{half:?}");
        assert_eq!(interval(&values), half, "the same on every run");
    }

    #[test]
    fn a_paired_gain_is_told_from_noise() {
        let b: Vec<f64> = (0..300).map(|i| f64::from(i % 3 == 0)).collect();
        let better: Vec<f64> = b
            .iter()
            .enumerate()
            .map(|(i, v)| if i % 10 == 1 { 1.0 } else { *v })
            .collect();
        let gain = paired(&better, &b);
        assert!(gain.low > 0.0, "{gain:?}");
        let same = paired(&b, &b);
        assert_eq!((same.low, same.high), (0.0, 0.0));
    }
}
