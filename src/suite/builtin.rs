//! The suites of the repository's `suites/` directory, compiled into the library, so that a
//! `cvperft` installed away from a clone (`cargo install`, the Python wheel) still has them:
//! `cvperft check` and `cvperft export` without a PATH read them when there is no `suites/`
//! where they run. The YAML files stay the one place the expected numbers live; these are
//! their texts as they were when the library was built, loaded exactly as the files are
//! ([`load_str`]) under the same paths, so checks keep their names and their order.

use super::load::{LoadError, Suite, load_str};
use std::path::Path;

/// The suite files, as (path in the repository, text), in the order [`super::discover`] reads
/// the directory (sorted by name).
pub const FILES: [(&str, &str); 6] = [
    (
        "suites/bachelor-kamil.yaml",
        include_str!("../../suites/bachelor-kamil.yaml"),
    ),
    (
        "suites/cerimon.yaml",
        include_str!("../../suites/cerimon.yaml"),
    ),
    ("suites/chess.yaml", include_str!("../../suites/chess.yaml")),
    (
        "suites/pink-panther.yaml",
        include_str!("../../suites/pink-panther.yaml"),
    ),
    (
        "suites/plutonian.yaml",
        include_str!("../../suites/plutonian.yaml"),
    ),
    (
        "suites/silver-elephant.yaml",
        include_str!("../../suites/silver-elephant.yaml"),
    ),
];

/// Every built-in suite, loaded.
///
/// # Errors
/// Every problem of every text (none: the tests load them all).
pub fn load() -> Result<Vec<Suite>, Vec<LoadError>> {
    let mut suites = Vec::new();
    let mut errors = Vec::new();
    for (path, text) in FILES {
        match load_str(text, Path::new(path)) {
            Ok(suite) => suites.push(suite),
            Err(mut e) => errors.append(&mut e),
        }
    }
    match errors.is_empty() {
        true => Ok(suites),
        false => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The list is the directory: a suite file added to `suites/` and not here would be missing
    /// from every run away from a clone.
    #[test]
    fn the_built_in_suites_are_the_suite_files() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let files = super::super::discover(&[root.join("suites")]).expect("suites/ reads");
        let listed: Vec<PathBuf> = FILES.iter().map(|(p, _)| root.join(p)).collect();
        assert_eq!(files, listed);
    }

    #[test]
    fn the_built_in_suites_load_as_the_files_do() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let built_in = load().expect("the built-in suites load");
        assert_eq!(built_in.len(), FILES.len());
        for (suite, (path, _)) in built_in.iter().zip(FILES) {
            let file = super::super::load_file(&root.join(path)).expect("the file loads");
            assert_eq!(suite.prefix(), file.prefix(), "{path}");
            assert_eq!(suite.cases.len(), file.cases.len(), "{path}");
            assert_eq!(suite.path, Path::new(path));
        }
    }
}
