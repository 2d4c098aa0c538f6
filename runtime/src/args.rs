//! Kernel arguments, packed the way MLIR's gpu-to-nvvm lowering lays out a `gpu.func`.
//!
//! # The kernel ABI
//!
//! Kernels come from `convert-gpu-to-nvvm` with the **default** memref calling
//! convention (no bare pointers). Each `gpu.func` argument becomes PTX parameters:
//!
//! | gpu.func argument | PTX parameters | host value |
//! |---|---|---|
//! | `memref<d0 x .. x d(r-1) x T>` | 3 + 2r: `.u64` allocated ptr, `.u64` aligned ptr, `.u64` offset, `.u64` sizes\[r\], `.u64` strides\[r\] | pointers as u64; offset, sizes and strides in **elements**, outermost first |
//! | `index`, `i64` | `.u64` | i64 |
//! | `i32` | `.u32` | i32 |
//! | `f32` | `.f32` | f32 |
//! | `i1` | `.u8` (NVPTX widens i1 kernel params to a byte) | u8, 0 or 1 |
//! | trailing tensor map (`!llvm.ptr` byval, `nvvm.grid_constant`) | `.param .align 64 .b8 p[128]` | the 128-byte `CUtensorMap` itself |
//!
//! `cuLaunchKernelEx` takes one pointer per PTX parameter, to a host copy of the value.
//! [`KernelArgs`] owns those copies (each in its own 128-byte-aligned slot, so a tensor
//! map's copy is 64-byte aligned as `__grid_constant__` wants) and hands out the pointer
//! array. Tensor maps come last, in manifest `param` order.

use crate::error::RuntimeError;
use crate::ptx::PtxParam;
use crate::tensor_map::CuTensorMap;
use acopy_manifest::{KernelEntry, TensorMapEntry};
use std::ffi::c_void;

#[repr(C, align(128))]
struct Slot([u8; 128]);

/// What one packed PTX parameter holds (for messages and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Ptr,
    I64,
    I32,
    F32,
    Pred,
    TensorMap,
}

impl ParamKind {
    /// Bytes the kernel reads for this parameter.
    pub fn size(self) -> usize {
        match self {
            ParamKind::Ptr | ParamKind::I64 => 8,
            ParamKind::I32 | ParamKind::F32 => 4,
            ParamKind::Pred => 1,
            ParamKind::TensorMap => 128,
        }
    }
}

/// The packed arguments of one launch. Build with the chained methods, in gpu.func
/// argument order, then tensor maps.
#[derive(Default)]
pub struct KernelArgs {
    /// One 128-byte, 128-aligned slot per parameter. The pointer array is rebuilt by
    /// `as_kernel_params`, so slots moving when the vector grows is harmless.
    slots: Vec<Slot>,
    kinds: Vec<ParamKind>,
    ptrs: Vec<*mut c_void>,
}

impl std::fmt::Debug for KernelArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelArgs")
            .field("kinds", &self.kinds)
            .finish()
    }
}

impl KernelArgs {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for `params` PTX parameters, so that packing them allocates once.
    pub fn with_capacity(params: usize) -> Self {
        KernelArgs {
            slots: Vec::with_capacity(params),
            kinds: Vec::with_capacity(params),
            ptrs: Vec::with_capacity(params),
        }
    }

    fn push(&mut self, kind: ParamKind, bytes: &[u8]) -> &mut Self {
        debug_assert_eq!(bytes.len(), kind.size());
        let mut slot = Slot([0; 128]);
        slot.0[..bytes.len()].copy_from_slice(bytes);
        self.slots.push(slot);
        self.kinds.push(kind);
        self
    }

    /// A memref with allocated = aligned = `ptr`, offset 0. `shape` and `strides` in
    /// elements, outermost first. Adds 3 + 2·rank parameters.
    ///
    /// # Panics
    /// When `shape` and `strides` differ in length.
    pub fn memref(&mut self, ptr: u64, shape: &[u64], strides: &[u64]) -> &mut Self {
        self.memref_parts(ptr, ptr, 0, shape, strides)
    }

    /// A memref descriptor given in full.
    ///
    /// # Panics
    /// When `shape` and `strides` differ in length.
    pub fn memref_parts(
        &mut self,
        allocated: u64,
        aligned: u64,
        offset: u64,
        shape: &[u64],
        strides: &[u64],
    ) -> &mut Self {
        assert_eq!(
            shape.len(),
            strides.len(),
            "memref shape and strides must have the same rank"
        );
        self.ptr(allocated).ptr(aligned).i64(offset as i64);
        for &s in shape {
            self.i64(s as i64);
        }
        for &s in strides {
            self.i64(s as i64);
        }
        self
    }

    /// A raw pointer parameter (`.u64`).
    pub fn ptr(&mut self, p: u64) -> &mut Self {
        self.push(ParamKind::Ptr, &p.to_ne_bytes())
    }

    /// An `index` or `i64` parameter.
    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.push(ParamKind::I64, &v.to_ne_bytes())
    }

    /// An `i32` parameter.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.push(ParamKind::I32, &v.to_ne_bytes())
    }

    /// An `f32` parameter.
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.push(ParamKind::F32, &v.to_ne_bytes())
    }

    /// An `i1` parameter: one byte, 0 or 1.
    pub fn pred(&mut self, v: bool) -> &mut Self {
        self.push(ParamKind::Pred, &[v as u8])
    }

    /// A `__grid_constant__` tensor map, passed by value (128 bytes).
    pub fn tensor_map(&mut self, map: &CuTensorMap) -> &mut Self {
        self.push(ParamKind::TensorMap, map.as_bytes())
    }

    /// Number of PTX parameters packed.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// What each packed parameter is.
    pub fn kinds(&self) -> &[ParamKind] {
        &self.kinds
    }

    /// The bytes of parameter `i` as the kernel will read them.
    pub fn bytes(&self, i: usize) -> &[u8] {
        &self.slots[i].0[..self.kinds[i].size()]
    }

    /// The `kernelParams` array for `cuLaunchKernel[Ex]`: one pointer per parameter, to
    /// storage owned by `self`. Valid until `self` is changed or dropped.
    pub fn as_kernel_params(&mut self) -> *mut *mut c_void {
        self.ptrs = self
            .slots
            .iter_mut()
            .map(|s| s.0.as_mut_ptr() as *mut c_void)
            .collect();
        if self.ptrs.is_empty() {
            std::ptr::null_mut()
        } else {
            self.ptrs.as_mut_ptr()
        }
    }
}

/// Check packed arguments against a kernel's PTX parameters: same count, same sizes.
pub fn check_against_ptx(
    kernel: &str,
    params: &[PtxParam],
    args: &KernelArgs,
) -> Result<(), RuntimeError> {
    let mismatch = |detail: String| RuntimeError::ArgMismatch {
        kernel: kernel.to_string(),
        detail,
    };
    if params.len() != args.len() {
        return Err(mismatch(format!(
            "the PTX declares {} parameters, {} were packed ({:?})",
            params.len(),
            args.len(),
            args.kinds()
        )));
    }
    for (i, (p, k)) in params.iter().zip(args.kinds()).enumerate() {
        if p.size != k.size() {
            return Err(mismatch(format!(
                "parameter {i} ({}) is {} bytes ({}), but a {:?} of {} bytes was packed",
                p.name,
                p.size,
                p.ty,
                k,
                k.size()
            )));
        }
        if *k == ParamKind::TensorMap && p.align < 64 {
            return Err(mismatch(format!(
                "parameter {i} ({}) holds a tensor map but is aligned to {} bytes; it must be \
                 `.param .align 64 .b8 {}[128]` (give the byval argument llvm.align = 64)",
                p.name, p.align, p.name
            )));
        }
    }
    Ok(())
}

/// A memref value: where it is and how it is laid out (all in elements).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemrefArg {
    pub allocated: u64,
    pub aligned: u64,
    pub offset: u64,
    /// Sizes, outermost first.
    pub shape: Vec<u64>,
    /// Strides in elements, outermost first.
    pub strides: Vec<u64>,
}

impl MemrefArg {
    /// Row-major contiguous memref at `ptr`, offset 0.
    pub fn contiguous(ptr: u64, shape: &[u64]) -> Self {
        MemrefArg {
            allocated: ptr,
            aligned: ptr,
            offset: 0,
            shape: shape.to_vec(),
            strides: row_major_strides(shape),
        }
    }
}

/// Row-major strides (elements) of a shape.
pub fn row_major_strides(shape: &[u64]) -> Vec<u64> {
    let mut strides = vec![1u64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

/// One gpu.func argument, for [`crate::Runtime::bind`].
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Memref(MemrefArg),
    I64(i64),
    I32(i32),
    F32(f32),
    Pred(bool),
    Ptr(u64),
}

/// Pack `args`, then the tensor maps of `kernel` encoded by `encode(entry, base, shape,
/// strides)`. Separate from the driver so it can be tested without one.
pub fn bind_with(
    args: &[Arg],
    kernel: Option<&KernelEntry>,
    mut encode: impl FnMut(&TensorMapEntry, u64, &[u64], &[u64]) -> Result<CuTensorMap, RuntimeError>,
) -> Result<KernelArgs, RuntimeError> {
    let mut ka = KernelArgs::new();
    for a in args {
        match a {
            Arg::Memref(m) => {
                ka.memref_parts(m.allocated, m.aligned, m.offset, &m.shape, &m.strides);
            }
            Arg::I64(v) => {
                ka.i64(*v);
            }
            Arg::I32(v) => {
                ka.i32(*v);
            }
            Arg::F32(v) => {
                ka.f32(*v);
            }
            Arg::Pred(v) => {
                ka.pred(*v);
            }
            Arg::Ptr(v) => {
                ka.ptr(*v);
            }
        }
    }
    let Some(kernel) = kernel else {
        return Ok(ka);
    };
    let mut maps: Vec<&TensorMapEntry> = kernel.tensor_maps.iter().collect();
    maps.sort_by_key(|t| t.param);
    for (i, t) in maps.iter().enumerate() {
        let expected = args.len() + i;
        if t.param as usize != expected {
            return Err(RuntimeError::Bind(format!(
                "kernel `{}`: tensor map for param {} should be param {expected}: tensor maps \
                 must be the trailing parameters after the {} given arguments",
                kernel.kernel,
                t.param,
                args.len()
            )));
        }
        let m = match args.get(t.map.arg as usize) {
            Some(Arg::Memref(m)) => m,
            other => {
                return Err(RuntimeError::Bind(format!(
                    "kernel `{}`: tensor map param {} describes argument {}, which is {}",
                    kernel.kernel,
                    t.param,
                    t.map.arg,
                    match other {
                        None => "missing".to_string(),
                        Some(a) => format!("not a memref ({a:?})"),
                    }
                )))
            }
        };
        let base = m.aligned + m.offset * t.map.element_bytes as u64;
        let map = encode(t, base, &m.shape, &m.strides)?;
        ka.tensor_map(&map);
    }
    Ok(ka)
}

#[cfg(test)]
mod tests {
    use super::*;
    use acopy_manifest::ElementType;

    fn read_u64(b: &[u8]) -> u64 {
        u64::from_ne_bytes(b.try_into().unwrap())
    }

    #[test]
    fn memref_expands_to_3_plus_2r() {
        let mut a = KernelArgs::new();
        a.memref(0x1000, &[256, 512], &[512, 1]);
        assert_eq!(a.len(), 3 + 2 * 2);
        let vals: Vec<u64> = (0..a.len()).map(|i| read_u64(a.bytes(i))).collect();
        assert_eq!(vals, vec![0x1000, 0x1000, 0, 256, 512, 512, 1]);
        assert_eq!(a.kinds()[0], ParamKind::Ptr);
        assert_eq!(a.kinds()[2], ParamKind::I64);
    }

    #[test]
    fn memref_parts_keeps_offset_and_both_pointers() {
        let mut a = KernelArgs::new();
        a.memref_parts(0x1000, 0x1040, 7, &[4, 5, 6], &[30, 6, 1]);
        let vals: Vec<u64> = (0..a.len()).map(|i| read_u64(a.bytes(i))).collect();
        assert_eq!(vals, vec![0x1000, 0x1040, 7, 4, 5, 6, 30, 6, 1]);
    }

    #[test]
    fn with_capacity_packs_the_same() {
        let mut a = KernelArgs::with_capacity(8);
        a.memref(0x1000, &[4], &[1]).i32(7);
        let mut b = KernelArgs::new();
        b.memref(0x1000, &[4], &[1]).i32(7);
        assert_eq!(a.kinds(), b.kinds());
        assert!((0..a.len()).all(|i| a.bytes(i) == b.bytes(i)));
    }

    #[test]
    fn scalars_have_ptx_sizes() {
        let mut a = KernelArgs::new();
        a.i64(-2).i32(-3).f32(1.5).pred(true).pred(false).ptr(9);
        let sizes: Vec<usize> = (0..a.len()).map(|i| a.bytes(i).len()).collect();
        assert_eq!(sizes, vec![8, 4, 4, 1, 1, 8]);
        assert_eq!(a.bytes(0), &(-2i64).to_ne_bytes());
        assert_eq!(a.bytes(1), &(-3i32).to_ne_bytes());
        assert_eq!(a.bytes(2), &1.5f32.to_ne_bytes());
        assert_eq!(a.bytes(3), &[1]);
        assert_eq!(a.bytes(4), &[0]);
    }

    #[test]
    fn tensor_map_is_by_value_and_aligned() {
        let mut m = CuTensorMap::default();
        for (i, w) in m.0.iter_mut().enumerate() {
            *w = i as u64 * 0x0101_0101;
        }
        let mut a = KernelArgs::new();
        a.i32(1).tensor_map(&m);
        assert_eq!(a.bytes(1), m.as_bytes());
        let p = a.as_kernel_params();
        let ptrs = unsafe { std::slice::from_raw_parts(p, 2) };
        for &q in ptrs {
            assert_eq!(q as usize % 64, 0, "every slot is 64-byte aligned");
        }
        let copy = unsafe { std::slice::from_raw_parts(ptrs[1] as *const u8, 128) };
        assert_eq!(copy, m.as_bytes());
        let first = unsafe { *(ptrs[0] as *const i32) };
        assert_eq!(first, 1);
    }

    #[test]
    fn pointer_array_survives_more_pushes() {
        let mut a = KernelArgs::new();
        a.i64(5);
        let _ = a.as_kernel_params();
        for i in 0..100 {
            a.i64(i);
        }
        let p = a.as_kernel_params();
        let ptrs = unsafe { std::slice::from_raw_parts(p, 101) };
        assert_eq!(unsafe { *(ptrs[0] as *const i64) }, 5);
        assert_eq!(unsafe { *(ptrs[100] as *const i64) }, 99);
        assert!(KernelArgs::new().as_kernel_params().is_null());
    }

    #[test]
    fn check_against_ptx_finds_mismatches() {
        let ptx = ".entry k(.param .u64 a, .param .u8 p, .param .align 64 .b8 t[128])";
        let params = crate::ptx::entry_params(ptx, "k").unwrap();
        let mut a = KernelArgs::new();
        a.i64(1).pred(true).tensor_map(&CuTensorMap::default());
        assert!(check_against_ptx("k", &params, &a).is_ok());
        let mut b = KernelArgs::new();
        b.i64(1).i32(1).tensor_map(&CuTensorMap::default());
        let e = check_against_ptx("k", &params, &b).unwrap_err().to_string();
        assert!(e.contains("parameter 1"), "{e}");
        let mut c = KernelArgs::new();
        c.i64(1);
        let e = check_against_ptx("k", &params, &c).unwrap_err().to_string();
        assert!(e.contains("declares 3 parameters, 1 were packed"), "{e}");
        // What LLVM prints for a byval [128 x i8] without `align 64`.
        let ptx = ".entry k(.param .u64 a, .param .u8 p, .param .align 1 .b8 t[128])";
        let params = crate::ptx::entry_params(ptx, "k").unwrap();
        let e = check_against_ptx("k", &params, &a).unwrap_err().to_string();
        assert!(e.contains("aligned to 1 bytes"), "{e}");
    }

    #[test]
    fn strides_are_row_major() {
        assert_eq!(row_major_strides(&[3, 4, 5]), vec![20, 5, 1]);
        assert_eq!(row_major_strides(&[7]), vec![1]);
        assert!(row_major_strides(&[]).is_empty());
    }

    fn kernel(maps: Vec<TensorMapEntry>) -> KernelEntry {
        KernelEntry {
            module: "m".into(),
            kernel: "k".into(),
            chip: "sm_90".into(),
            cluster: [1, 1, 1],
            tensor_maps: maps,
            dynamic_shared_memory: None,
            programmatic_launch: false,
            launch: None,
        }
    }

    #[test]
    fn bind_appends_tensor_maps_in_param_order() {
        let src = MemrefArg {
            allocated: 0x1000,
            aligned: 0x1000,
            offset: 4,
            shape: vec![256, 512],
            strides: vec![512, 1],
        };
        let args = [
            Arg::Memref(src),
            Arg::Memref(MemrefArg::contiguous(0x9000, &[64, 128])),
        ];
        let k = kernel(vec![
            TensorMapEntry::new(3, 1, ElementType::F32, vec![64, 128]),
            TensorMapEntry::new(2, 0, ElementType::F32, vec![64, 128]),
        ]);
        let mut seen = Vec::new();
        let ka = bind_with(&args, Some(&k), |e, base, shape, strides| {
            seen.push((e.param, base, shape.to_vec(), strides.to_vec()));
            let mut m = CuTensorMap::default();
            m.0[0] = e.param as u64;
            Ok(m)
        })
        .unwrap();
        assert_eq!(ka.len(), 7 + 7 + 2);
        assert_eq!(ka.kinds()[14], ParamKind::TensorMap);
        assert_eq!(read_u64(&ka.bytes(14)[..8]), 2);
        assert_eq!(read_u64(&ka.bytes(15)[..8]), 3);
        // Base = aligned + offset * element size.
        assert_eq!(seen[0], (2, 0x1000 + 16, vec![256, 512], vec![512, 1]));
        assert_eq!(seen[1].1, 0x9000);
    }

    #[test]
    fn bind_rejects_bad_manifests() {
        let args = [
            Arg::Memref(MemrefArg::contiguous(0x1000, &[8, 8])),
            Arg::Pred(true),
        ];
        let enc = |_: &TensorMapEntry, _: u64, _: &[u64], _: &[u64]| Ok(CuTensorMap::default());
        // Not trailing.
        let k = kernel(vec![TensorMapEntry::new(
            3,
            0,
            ElementType::F32,
            vec![8, 8],
        )]);
        assert!(matches!(
            bind_with(&args, Some(&k), enc),
            Err(RuntimeError::Bind(_))
        ));
        // Describes a non-memref.
        let k = kernel(vec![TensorMapEntry::new(
            2,
            1,
            ElementType::F32,
            vec![8, 8],
        )]);
        let e = bind_with(&args, Some(&k), enc).unwrap_err().to_string();
        assert!(e.contains("not a memref"), "{e}");
        // Describes a missing argument.
        let k = kernel(vec![TensorMapEntry::new(
            2,
            7,
            ElementType::F32,
            vec![8, 8],
        )]);
        let e = bind_with(&args, Some(&k), enc).unwrap_err().to_string();
        assert!(e.contains("missing"), "{e}");
        // No manifest entry: plain packing.
        assert_eq!(bind_with(&args, None, enc).unwrap().len(), 8);
    }
}
