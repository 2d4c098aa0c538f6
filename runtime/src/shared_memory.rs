//! Whether a launch must opt in to more than 48 KiB of shared memory per block.
//!
//! The driver lets a kernel's dynamic shared memory reach `48 KiB - static` without
//! asking; beyond that the launch fails with `CUDA_ERROR_INVALID_VALUE` unless
//! `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` was raised first. So the sum of the
//! kernel's static shared memory (`CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`) and the
//! launch's dynamic size decides, not the dynamic size alone: a pipelined kernel with
//! 14880 static bytes and its slots in 47712 dynamic ones needs the opt-in (issue 26,
//! defect 2; docs/pipelining.md, "Shared memory"). The sum may not exceed the device's
//! opt-in maximum (`CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN`).

use crate::error::{check, RuntimeError};
use cudarc::driver::sys;

/// Shared memory per block a kernel may use without opting in.
pub const DEFAULT_MAX_SMEM: u32 = 48 * 1024;

/// The dynamic size to opt in to (`Some`), or `None` when static plus dynamic fit in
/// [`DEFAULT_MAX_SMEM`]; an error when they exceed `opt_in_max`, the device's limit.
pub fn opt_in(
    kernel: &str,
    static_bytes: u32,
    dynamic_bytes: u32,
    opt_in_max: u32,
) -> Result<Option<u32>, RuntimeError> {
    let total = u64::from(static_bytes) + u64::from(dynamic_bytes);
    if total > u64::from(opt_in_max) {
        return Err(RuntimeError::SharedMemory {
            kernel: kernel.to_string(),
            static_bytes,
            dynamic_bytes,
            limit: opt_in_max,
        });
    }
    Ok((total > u64::from(DEFAULT_MAX_SMEM)).then_some(dynamic_bytes))
}

/// The kernel's static shared memory in bytes (`cuFuncGetAttribute`).
pub(crate) fn static_bytes(func: sys::CUfunction) -> Result<u32, RuntimeError> {
    let mut bytes = 0;
    // SAFETY: a live function of a loaded module and a valid out pointer.
    check("cuFuncGetAttribute", unsafe {
        sys::cuFuncGetAttribute(
            &mut bytes,
            sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
            func,
        )
    })?;
    Ok(u32::try_from(bytes).unwrap_or(0))
}

/// Allow up to `bytes` of dynamic shared memory
/// (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`).
pub(crate) fn set_max_dynamic(func: sys::CUfunction, bytes: u32) -> Result<(), RuntimeError> {
    let value = i32::try_from(bytes)
        .map_err(|_| RuntimeError::Launch(format!("{bytes} bytes of dynamic shared memory")))?;
    // SAFETY: a live function of a loaded module.
    check("cuFuncSetAttribute", unsafe {
        sys::cuFuncSetAttribute(
            func,
            sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            value,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The H200's opt-in maximum (227 KiB).
    const H200: u32 = 232_448;

    #[test]
    fn the_sum_decides_not_the_dynamic_part() {
        // Issue 26's kernel: 47712 dynamic bytes alone fit, the sum does not.
        assert_eq!(opt_in("k", 14_880, 47_712, H200).unwrap(), Some(47_712));
        assert_eq!(opt_in("k", 0, 49_152, H200).unwrap(), None);
        assert_eq!(opt_in("k", 0, 49_153, H200).unwrap(), Some(49_153));
        assert_eq!(opt_in("k", 49_152, 0, H200).unwrap(), None);
        assert_eq!(opt_in("k", 49_152, 1, H200).unwrap(), Some(1));
    }

    #[test]
    fn over_the_device_maximum_is_an_error() {
        assert_eq!(opt_in("k", 0, H200, H200).unwrap(), Some(H200));
        let e = opt_in("k", 14_880, H200 - 14_879, H200).unwrap_err();
        assert!(
            matches!(
                e,
                RuntimeError::SharedMemory {
                    static_bytes: 14_880,
                    dynamic_bytes: 217_569,
                    limit: H200,
                    ..
                }
            ),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(text.contains("`k`") && text.contains("232449"), "{text}");
        // No overflow at the extremes.
        assert!(opt_in("k", u32::MAX, u32::MAX, H200).is_err());
    }
}
