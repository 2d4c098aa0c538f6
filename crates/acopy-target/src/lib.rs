//! The chip model behind acopy.
//!
//! This crate answers three questions about an NVIDIA GPU named by its
//! `sm_XX` string, without knowing anything about MLIR:
//!
//! * which copy implementation to use ([`Chip::copy_path`]): `cp.async` before
//!   Hopper, TMA from Hopper on;
//! * which hardware features exist ([`Chip::has`] with a [`Capability`]);
//! * which PTX ISA version to hand to LLVM's NVPTX backend
//!   ([`Chip::ptx_version`], [`Chip::min_ptx`]).
//!
//! Keeping this apart from the dialect and the passes means the facts live in
//! one place and can be unit-tested without linking MLIR.

#![warn(missing_docs)]

mod capability;
mod chip;
mod ptx;

pub use capability::{Capability, CopyPath};
pub use chip::{Chip, TargetError};
pub use ptx::{InstructionFamily, PtxVersion, LLVM_MAX_PTX};
