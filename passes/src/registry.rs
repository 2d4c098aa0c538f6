//! The one list of acopy passes. The driver's `--acopy-*` flags and the
//! `--pass-pipeline` parser both read it, so a pass added here is reachable
//! both ways.

use melior::pass::Pass;

use crate::{lower, manifest, pipeliner, verify, PassOptions};

/// An acopy pass, by its pipeline name.
pub struct PassInfo {
    /// The name in `--pass-pipeline` and, with `--` in front, the driver flag.
    pub argument: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// Creates the pass with its options.
    pub create: fn(PassOptions) -> Pass,
}

/// Every acopy pass, in the order the driver's flags run them.
pub const PASSES: &[PassInfo] = &[
    PassInfo {
        argument: "acopy-pipeline",
        summary: pipeliner::SUMMARY,
        create: pipeliner::create_pass,
    },
    PassInfo {
        argument: "acopy-verify",
        summary: verify::SUMMARY,
        create: verify::create_pass,
    },
    PassInfo {
        argument: "acopy-lower",
        summary: lower::SUMMARY,
        create: lower::create_pass,
    },
    PassInfo {
        argument: "acopy-tensor-map-params",
        summary: manifest::params::SUMMARY,
        create: manifest::params::create_pass,
    },
];

/// The pass with pipeline name `argument`.
pub fn find(argument: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|info| info.argument == argument)
}
