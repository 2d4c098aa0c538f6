//! Memory spaces of memref operands, as docs/dialect.md defines them.

use melior::ir::{attribute::IntegerAttribute, r#type::MemRefType, Attribute};

/// Where a memref lives, for the purposes of an async copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemorySpace {
    /// No memory space, `1`, or `#gpu.address_space<global>`.
    Global,
    /// `3` or `#gpu.address_space<workgroup>`.
    Shared,
    /// Anything else (private, constant, a dialect's own space).
    Other,
}

impl MemorySpace {
    /// Classifies a memref type by its memory-space attribute.
    pub fn of(memref: MemRefType) -> Self {
        match memref.memory_space() {
            None => MemorySpace::Global,
            Some(attribute) => Self::of_attribute(attribute),
        }
    }

    fn of_attribute(attribute: Attribute) -> Self {
        if let Ok(integer) = IntegerAttribute::try_from(attribute) {
            return match integer.value() {
                0 | 1 => MemorySpace::Global,
                3 => MemorySpace::Shared,
                _ => MemorySpace::Other,
            };
        }
        // The C API has no accessor for gpu.address_space, so compare its spelling.
        match attribute.to_string().as_str() {
            "#gpu.address_space<global>" => MemorySpace::Global,
            "#gpu.address_space<workgroup>" => MemorySpace::Shared,
            _ => MemorySpace::Other,
        }
    }
}
