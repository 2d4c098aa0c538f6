//! The chips the generators draw from, shared by the module generator and the
//! marked-loop generator.

/// Chips acopy supports (docs/dialect.md, "Target").
pub const CHIPS: [&str; 14] = [
    "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_101a",
    "sm_103a", "sm_110a", "sm_120", "sm_120a", "sm_121a",
];
