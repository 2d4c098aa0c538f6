//! Bakes in the name of the libMLIR.so this plugin's libacopy_capi.so links
//! (`libMLIR.so.<major>.<minor>`, from the same llvm-config mlir-sys asks),
//! for the host check in src/host.rs.

use std::{env, process::Command};

fn main() {
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string());
    let tool = format!("{prefix}/bin/llvm-config");
    let output = Command::new(&tool)
        .arg("--version")
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run {tool} (scripts/install-deps.sh installs it): {error}")
        });
    let version = String::from_utf8_lossy(&output.stdout);
    let mut parts = version.trim().split('.');
    let (Some(major), Some(minor)) = (parts.next(), parts.next()) else {
        panic!("{tool} --version printed '{version}', not MAJOR.MINOR.PATCH");
    };
    println!("cargo:rustc-env=ACOPY_MLIR_VERSION={major}.{minor}");
}
