//! MLIR diagnostics as data, for library callers and for the driver, which
//! prints them as `file:line:col: error: …`.
//!
//! - `collect`: a context handler that copies every diagnostic (with its
//!   notes, position and rule id) out of MLIR into [`Diagnostic`];
//! - `position`: a location's source position, and back;
//! - `rule`: [`emit_rule_error`], which sends a rule's id with its error so
//!   that the collector reads it back from the diagnostic;
//! - `detail`: [`emit_detail`], the same for a remark's data
//!   ([`Diagnostic::detail`]).
//!
//! The type itself ([`Diagnostic`], [`Position`], [`Severity`]) and how it is
//! spelled live in `acopy-expect`, below every crate that hands diagnostics
//! to users.

mod capture;
mod detail;
mod fused;
mod position;
mod rule;

pub use acopy_expect::{
    Detail, Diagnostic, MulticastSlots, PipelinedLoop, Position, Severity, TileSlots, WaitScheme,
};
pub use capture::{append_bytes, Attached, Collector};
pub use detail::emit_detail;
pub use position::{location_at, position_of};
pub use rule::emit_rule_error;
