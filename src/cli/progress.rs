//! Progress bars on standard error: shown only on a terminal and without `--quiet`, advanced
//! per root move or per work unit (never per node, so they cost nothing in the counting).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps with `template` (indicatif's syntax), or a hidden one when standard
/// error is not a terminal or `quiet` is set.
pub fn bar(len: u64, quiet: bool, template: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A count with a metric prefix: `532`, `1.23 k`, `45.6 M`, `7.89 G`.
pub fn metric(n: f64) -> String {
    let (value, prefix) = if n >= 1e12 {
        (n / 1e12, " T")
    } else if n >= 1e9 {
        (n / 1e9, " G")
    } else if n >= 1e6 {
        (n / 1e6, " M")
    } else if n >= 1e3 {
        (n / 1e3, " k")
    } else {
        return format!("{n:.0}");
    };
    format!("{value:.2}{prefix}")
}

#[cfg(test)]
mod tests {
    use super::metric;

    #[test]
    fn metric_prefixes() {
        assert_eq!(metric(532.0), "532");
        assert_eq!(metric(1234.0), "1.23 k");
        assert_eq!(metric(45_600_000.0), "45.60 M");
        assert_eq!(metric(119_060_324_000.0), "119.06 G");
    }
}
