//! What a launch needs to know about a kernel beyond its tensor maps (format
//! version 2): its arguments, the block size it was compiled for and its static
//! shared memory. The compiler records them, so that no host has to parse the
//! kernel's source again.

use serde::{Deserialize, Deserializer, Serialize};

/// The launch facts of one kernel. In JSON its fields sit in the kernel entry,
/// next to `tensor_maps`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchFacts {
    /// Bytes of static shared memory: the kernel's workgroup attributions and
    /// the address-space-3 `memref.global`s it uses, each counted once, without
    /// the padding ptxas may add between them for alignment.
    pub static_shared_memory: u32,
    /// The block size the kernel was compiled for (`known_block_size`,
    /// `gpu.known_block_size` or `nvvm.reqntid`), `null` when any block works.
    /// Required in JSON (`null`, not absent), as the other two are.
    #[serde(deserialize_with = "required")]
    pub block: Option<[u32; 3]>,
    /// The `gpu.func` arguments in order, the trailing tensor-map parameters
    /// left out (`tensor_maps` describes those).
    pub args: Vec<KernelArg>,
}

/// One kernel argument, by kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KernelArg {
    Memref(MemrefArgType),
    Scalar(ScalarArgType),
}

/// A memref argument's type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemrefArgType {
    /// The MLIR spelling of the whole type, e.g. `memref<256x512xf32>`.
    #[serde(rename = "type")]
    pub mlir_type: String,
    /// The element type's MLIR spelling, e.g. `f32`.
    pub element: String,
    /// Bits of one element; `null` for an element that is not an integer or float.
    pub element_bits: Option<u32>,
    /// Sizes, outermost first; `null` for a dynamic size.
    pub shape: Vec<Option<i64>>,
    /// Strides in elements; `null` for a dynamic stride (or a layout that is not strided).
    pub strides: Vec<Option<i64>>,
    /// Offset in elements; `null` when dynamic.
    pub offset: Option<i64>,
    /// Whether the layout is the identity (row-major, offset 0).
    pub contiguous: bool,
    /// The memory space attribute's MLIR spelling; `null` for the default space.
    pub memory_space: Option<String>,
    /// Whether that space is global memory (none, `1` or `#gpu.address_space<global>`).
    pub global: bool,
}

/// A scalar argument's type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScalarArgType {
    /// The MLIR spelling, e.g. `index`, `i32`, `f32`, `i1`.
    #[serde(rename = "type")]
    pub mlir_type: String,
}

impl KernelArg {
    /// The MLIR spelling of the argument's type.
    pub fn mlir_type(&self) -> &str {
        match self {
            KernelArg::Memref(memref) => &memref.mlir_type,
            KernelArg::Scalar(scalar) => &scalar.mlir_type,
        }
    }
}

/// An `Option` field that must be present: serde reads a missing `Option` as
/// `None` unless the field has a deserializer of its own.
fn required<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<[u32; 3]>, D::Error> {
    Option::deserialize(deserializer)
}
