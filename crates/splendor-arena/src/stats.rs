//! Win rates with 95% confidence intervals, and Elo differences.
//!
//! A game scores 1 for a win, 1/k for a victory shared by k (R10.4), 0
//! otherwise. The interval is Wilson's score interval on the mean score
//! (exact enough for the series sizes an arena runs, and never outside
//! [0, 1] unlike the normal approximation). The Elo difference of a score
//! `p` against the field is `400 log10(p / (1 - p))`, the interval mapped
//! through the same function.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's 95% interval for a mean score `score` over `n` games.
pub fn wilson(score: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = (score / n).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that an expected score `p` means (±infinity at 1 and 0).
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (p / (1.0 - p)).log10()
    }
}

/// An Elo figure for a table: "+191", "-inf".
pub fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        // Never "-0": a difference that rounds to nothing is +0.
        let rounded = x.round();
        if rounded == 0.0 {
            "+0".into()
        } else {
            format!("{rounded:+.0}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook_values() {
        // 81 successes in 263 trials: the classic example, (0.2553, 0.3662).
        let (lo, hi) = wilson(81.0, 263);
        assert!((lo - 0.2553).abs() < 1e-3, "{lo}");
        assert!((hi - 0.3662).abs() < 1e-3, "{hi}");
        // All wins still leaves room below 1; none, above 0.
        let (lo, hi) = wilson(10.0, 10);
        assert!(lo > 0.72 && lo < 0.73 && hi > 0.999_999, "{lo} {hi}");
        assert_eq!(wilson(0.0, 0), (0.0, 1.0));
    }

    #[test]
    fn elo_is_zero_at_even_and_symmetric() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert!((elo(0.25) + elo(0.75)).abs() < 1e-9);
        assert_eq!(elo_text(elo(1.0)), "+inf");
        assert_eq!(elo_text(191.2), "+191");
        assert_eq!(elo_text(-0.4), "+0");
        assert_eq!(elo_text(-0.0), "+0");
        assert_eq!(elo_text(-191.6), "-192");
    }
}
