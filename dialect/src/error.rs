//! Errors raised while loading the dialect or reading an op through a typed view.

/// The dialect could not be loaded into a context.
#[derive(Debug, thiserror::Error)]
pub enum DialectError {
    /// MLIR did not load the compiled dialect; this is a bug in the crate, not in user input.
    #[error("MLIR could not load the acopy dialect")]
    Load,
}

/// An op does not have the shape its typed view needs.
///
/// The `Display` text is the diagnostic users see at the op, so it names the
/// offending operand or attribute and, for attributes, the allowed values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The view was asked to read an op of another kind.
    #[error("expected an '{expected}' op, got '{found}'")]
    WrongOp {
        expected: &'static str,
        found: String,
    },
    /// An attribute holds a value outside its allowed set.
    #[error("attribute '{name}' must be one of {allowed}, but got {found}")]
    AttributeValue {
        name: &'static str,
        allowed: &'static str,
        found: String,
    },
    /// A required attribute is missing.
    #[error("attribute '{name}' is required {reason}")]
    AttributeMissing {
        name: &'static str,
        reason: &'static str,
    },
    /// `operandSegmentSizes` is missing or does not fit the op.
    #[error("'operandSegmentSizes' {0}")]
    Segments(String),
    /// An operand has the wrong type, memory space, rank or count.
    #[error("{0}")]
    Operand(String),
}
