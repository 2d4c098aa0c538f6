//! The one list of acopy passes: every acopy pass a pipeline runs, the
//! driver's and the facade's included. The `--pass-pipeline` parser reads it,
//! so a pass added here is reachable by name.

use melior::pass::Pass;

use crate::{lower, manifest, options::OptionError, pipeliner, prepare_emit, verify, PassOptions};

/// An acopy pass, by its pipeline name.
pub struct PassInfo {
    /// The name in `--pass-pipeline`.
    pub argument: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// The keys its `{…}` options take.
    pub options: &'static [&'static str],
    /// Creates the pass from the text between its braces (`chip=sm_90 …`),
    /// given its name for the error messages.
    pub create: fn(&str, &str) -> Result<Pass, OptionError>,
}

/// Every acopy pass, in the order a pipeline runs them.
pub const PASSES: &[PassInfo] = &[
    PassInfo {
        argument: "acopy-pipeline",
        summary: pipeliner::SUMMARY,
        options: PassOptions::OPTIONS,
        create: |name, text| Ok(pipeliner::create_pass(PassOptions::parse(name, text)?)),
    },
    PassInfo {
        argument: "acopy-verify",
        summary: verify::SUMMARY,
        options: PassOptions::OPTIONS,
        create: |name, text| Ok(verify::create_pass(PassOptions::parse(name, text)?)),
    },
    PassInfo {
        argument: "acopy-lower",
        summary: lower::SUMMARY,
        options: PassOptions::OPTIONS,
        create: |name, text| Ok(lower::create_pass(PassOptions::parse(name, text)?)),
    },
    PassInfo {
        argument: "acopy-prepare-emit",
        summary: prepare_emit::prepare::SUMMARY,
        options: prepare_emit::prepare::OPTIONS,
        create: prepare_emit::prepare::parse_pass,
    },
    PassInfo {
        argument: "acopy-tensor-map-params",
        summary: manifest::params::SUMMARY,
        options: PassOptions::OPTIONS,
        create: |name, text| {
            Ok(manifest::params::create_pass(PassOptions::parse(
                name, text,
            )?))
        },
    },
    PassInfo {
        argument: "acopy-check-lowered",
        summary: prepare_emit::leftovers::SUMMARY,
        options: &[],
        create: |name, text| {
            if text.trim().is_empty() {
                Ok(prepare_emit::leftovers::create_pass())
            } else {
                Err(OptionError::Unknown {
                    pass: name.into(),
                    key: text.trim().into(),
                    takes: &[],
                })
            }
        },
    },
];

/// The pass with pipeline name `argument`.
pub fn find(argument: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|info| info.argument == argument)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pass is registered under the name it reports to MLIR (what
    /// `--mlir-timing` and `--mlir-print-ir-after-all` show).
    #[test]
    fn every_pass_is_found_by_its_name() {
        let context = crate::context::create_context().expect("context");
        for info in PASSES {
            assert_eq!(
                find(info.argument).map(|found| found.summary),
                Some(info.summary)
            );
            let pass = (info.create)(info.argument, "").expect("no options");
            let manager = melior::pass::PassManager::new(&context);
            manager.add_pass(pass);
            let printed = manager.as_operation_pass_manager().to_string();
            assert!(printed.contains(info.argument), "{printed}");
        }
        assert!(find("acopy-frobnicate").is_none());
    }

    #[test]
    fn prepare_emit_takes_its_own_options() {
        let create = find("acopy-prepare-emit").unwrap().create;
        assert!(create("acopy-prepare-emit", "chip=sm_90 emit=llvm").is_ok());
        let error = create("acopy-prepare-emit", "emit=mlir").err().unwrap();
        assert_eq!(
            error.to_string(),
            "option 'emit' of pass 'acopy-prepare-emit' must be llvm or ptx, got 'mlir'"
        );
        let error = create("acopy-prepare-emit", "fallback").err().unwrap();
        assert_eq!(
            error.to_string(),
            "unknown option 'fallback' for pass 'acopy-prepare-emit'; it takes: chip, emit"
        );
        assert!(matches!(
            create("acopy-prepare-emit", "emit"),
            Err(OptionError::MissingValue { .. })
        ));
    }
}
