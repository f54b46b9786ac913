//! The analyses of finished games (issue 26): how hard the judge thinks
//! and how much work may wait.

use clap::Args;

/// The analyses' settings.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// Search iterations per position of an analysis (the strong level's
    /// own budget per move by default). Part of every analysis made: a
    /// finished game is analysed once, with the value in force then.
    #[arg(long, env = "SPLENDOR_ANALYSIS_ITERATIONS", default_value_t = splendor_analysis::Settings::DEFAULT.iterations, value_parser = clap::value_parser!(u32).range(1..=1_000_000), help_heading = "Analyses")]
    pub analysis_iterations: u32,
    /// How many analyses may wait on this node (0: no analyses). A request
    /// beyond it is answered 503 `analysis_queue_full`.
    #[arg(
        long,
        env = "SPLENDOR_ANALYSIS_QUEUE",
        default_value_t = 16,
        help_heading = "Analyses"
    )]
    pub analysis_queue: usize,
    /// How many analyses one client address (or one session) may have
    /// waiting or running at once; beyond it, 429 `too_many_analyses`.
    #[arg(long, env = "SPLENDOR_ANALYSES_PER_CLIENT", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..), help_heading = "Analyses")]
    pub analyses_per_client: u32,
}

impl Default for AnalysisOptions {
    fn default() -> AnalysisOptions {
        AnalysisOptions {
            analysis_iterations: splendor_analysis::Settings::DEFAULT.iterations,
            analysis_queue: 16,
            analyses_per_client: 2,
        }
    }
}
