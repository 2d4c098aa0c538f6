//! Which MLIR the host process runs: read from the libraries it has mapped
//! (`/proc/self/maps`), before anything of acopy's LLVM is loaded.
//!
//! libacopy_capi.so needs the host's own libMLIR.so of its version: MLIR's
//! symbols carry no version tag, so a second libMLIR (another LLVM's, or one
//! linked statically into mlir-opt, as Debian's mlir-opt-19 has it) would
//! resolve some of them to the other copy, and the registries would be two.

/// `MAJOR.MINOR` of the LLVM this plugin's libacopy_capi.so links.
pub const MLIR_VERSION: &str = env!("ACOPY_MLIR_VERSION");

/// The host cannot take the plugin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "acopy-mlir-plugin: acopy is built for MLIR {expected} and loads only into an mlir-opt \
     linked to libMLIR.so.{expected} (such as /usr/lib/llvm-{major}/bin/mlir-opt), but this \
     process has {found}; not loading acopy",
    major = expected.split('.').next().unwrap_or(expected),
    found = describe(.found)
)]
pub struct ForeignHost {
    pub expected: String,
    /// The LLVM and MLIR libraries the host has mapped, by file name.
    pub found: Vec<String>,
}

fn describe(found: &[String]) -> String {
    if found.iter().any(|name| name.starts_with("libMLIR.so")) {
        found.join(", ")
    } else if found.is_empty() {
        "no shared LLVM or MLIR library (MLIR linked statically)".to_string()
    } else {
        format!("{} and MLIR linked statically", found.join(", "))
    }
}

/// The LLVM and MLIR shared libraries named in `maps` (the text of
/// `/proc/self/maps`), by file name, each once, in order.
pub fn llvm_libraries(maps: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in maps.lines() {
        // The path is the sixth field; it may hold spaces, so take the rest.
        let Some(path) = line.splitn(6, char::is_whitespace).nth(5).map(str::trim) else {
            continue;
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        let ours = name.starts_with("libMLIR.so")
            || name.starts_with("libLLVM.so")
            || name.starts_with("libLLVM-");
        if ours && !found.iter().any(|known| known == name) {
            found.push(name.to_string());
        }
    }
    found
}

/// Whether a process with `maps` runs MLIR `version` from the shared
/// libMLIR.so of that version, and no other LLVM or MLIR.
pub fn check(maps: &str, version: &str) -> Result<(), ForeignHost> {
    let found = llvm_libraries(maps);
    let mlir = format!("libMLIR.so.{version}");
    let llvm = [format!("libLLVM.so.{version}"), "libLLVM.so".to_string()];
    let has_ours = found.contains(&mlir);
    let all_ours = found.iter().all(|name| {
        *name == mlir
            || llvm.contains(name)
            || name.starts_with(&format!(
                "libLLVM-{}",
                version.split('.').next().unwrap_or(version)
            ))
    });
    if has_ours && all_ours {
        Ok(())
    } else {
        Err(ForeignHost {
            expected: version.to_string(),
            found,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MLIR_OPT_22: &str = "\
55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 1 /usr/lib/llvm-22/bin/mlir-opt
7f0000000000-7f0000100000 r-xp 00000000 08:01 2 /usr/lib/llvm-22/lib/libMLIR.so.22.1
7f0000200000-7f0000300000 r-xp 00000000 08:01 3 /usr/lib/llvm-22/lib/libLLVM.so.22.1
7f0000400000-7f0000401000 r-xp 00000000 08:01 4 /usr/lib/x86_64-linux-gnu/libc.so.6
7f0000500000-7f0000501000 rw-p 00000000 00:00 0
7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]
";

    #[test]
    fn mlir_opt_of_the_same_version_is_accepted() {
        assert_eq!(check(MLIR_OPT_22, "22.1"), Ok(()));
        assert_eq!(
            llvm_libraries(MLIR_OPT_22),
            ["libMLIR.so.22.1", "libLLVM.so.22.1"]
        );
    }

    /// Debian's mlir-opt-19: MLIR linked in, libLLVM.so.19.1 shared.
    #[test]
    fn another_llvm_with_static_mlir_is_refused_by_name() {
        let maps = "7f0000200000-7f0000300000 r-xp 00000000 08:01 3 /usr/lib/llvm-19/lib/libLLVM.so.19.1\n";
        let error = check(maps, "22.1").unwrap_err();
        assert_eq!(
            error.to_string(),
            "acopy-mlir-plugin: acopy is built for MLIR 22.1 and loads only into an mlir-opt \
             linked to libMLIR.so.22.1 (such as /usr/lib/llvm-22/bin/mlir-opt), but this process \
             has libLLVM.so.19.1 and MLIR linked statically; not loading acopy"
        );
    }

    #[test]
    fn another_shared_mlir_is_refused() {
        let maps = MLIR_OPT_22.replace("22.1", "21.1");
        let error = check(&maps, "22.1").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("this process has libMLIR.so.21.1, libLLVM.so.21.1;"),
            "{error}"
        );
        // Ours and another one at once is refused too.
        let both = format!("{MLIR_OPT_22}{maps}");
        assert!(check(&both, "22.1").is_err());
    }

    #[test]
    fn a_host_without_any_llvm_is_refused() {
        let maps =
            "7f0000400000-7f0000401000 r-xp 00000000 08:01 4 /usr/lib/x86_64-linux-gnu/libc.so.6\n";
        let error = check(maps, "22.1").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("no shared LLVM or MLIR library (MLIR linked statically)"),
            "{error}"
        );
    }
}
