//! Replays the fuzz seed corpus (`fuzz/corpus/<target>/`) and every crash input kept as a
//! regression (`fuzz/regressions/<target>/`) through the fuzz targets' checks, on the stable
//! toolchain and without a fuzzer: one trial per input, named `<target>::<dir>::<file>`.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;

#[path = "../fuzz/src/checks.rs"]
mod checks;

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut trials = Vec::new();
    for &(target, check) in checks::TARGETS {
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
                continue;
            };
            let mut files: Vec<_> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            files.sort();
            for file in files {
                let name = format!(
                    "{target}::{dir}::{}",
                    file.file_name().unwrap_or_default().to_string_lossy()
                );
                trials.push(Trial::test(name, move || {
                    let data = std::fs::read(&file).map_err(|e| Failed::from(e.to_string()))?;
                    std::panic::catch_unwind(|| check(&data)).map_err(|p| {
                        Failed::from(
                            p.downcast_ref::<String>()
                                .cloned()
                                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_else(|| "panicked".into()),
                        )
                    })
                }));
            }
        }
    }
    assert!(
        trials.len() >= checks::TARGETS.len() * 12,
        "the seed corpus is missing: {} inputs",
        trials.len()
    );
    libtest_mimic::run(&args, trials).exit_code()
}
