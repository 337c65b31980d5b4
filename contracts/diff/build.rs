//! Checks that the forge artifacts the bindings are generated from exist (`contracts/out`).
//!
//! With them, `cfg(eden_artifacts)` is set and `src/lib.rs` generates the `sol!` bindings from the
//! artifact ABIs. Without them the crate still compiles (so workspace-wide `cargo check`/`clippy`
//! work on a fresh checkout) but every differential test is replaced by one that fails and says
//! to run `forge build` first.

use std::path::Path;

/// Artifacts under `contracts/out` the bindings read (keep in sync with `src/lib.rs`).
const ARTIFACTS: &[&str] = &[
    "EpochRegistry.sol/EpochRegistry.json",
    "Launchpad.sol/Launchpad.json",
    "LaunchToken.sol/LaunchToken.json",
    "HolderDistributor.sol/HolderDistributor.json",
    "TestERC20.sol/TestERC20.json",
    "IExtsload.sol/IExtsload.json",
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(eden_artifacts)");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let out = Path::new(&manifest).join("../out");
    let mut missing = Vec::new();
    for a in ARTIFACTS {
        let p = out.join(a);
        println!("cargo::rerun-if-changed={}", p.display());
        if !p.is_file() {
            missing.push(a.to_string());
        }
    }
    println!("cargo::rerun-if-changed=build.rs");
    if missing.is_empty() {
        println!("cargo::rustc-cfg=eden_artifacts");
    } else {
        println!(
            "cargo::warning=contracts/out is missing {} (run `cd contracts && ../node_modules/.bin/forge build --offline` \
             or `scripts/test-contracts.sh` first): the eden-contracts-diff tests will fail until then",
            missing.join(", ")
        );
    }
}
