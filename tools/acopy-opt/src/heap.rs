//! How the heap grows. glibc gives each thread that allocates (the driver's
//! worker, MLIR's pool threads) an arena of its own, a heap of up to 64 MiB
//! whose pages it makes writable with one `mprotect` each time an allocation
//! passes the end of what is writable, a few pages at a time. Compiling the
//! bench's 1000 TMA kernels (bench/compile_speed.py) made thousands of those
//! calls: 4 % of the CPU time of `--acopy-lower` (bench/RESULTS.md,
//! 2026-12-06 afternoon). A new heap is made writable up to `M_TOP_PAD` bytes
//! past its first request at once; with the pad at the heap's 64 MiB limit
//! it is made writable whole, with one call. That costs address space, not
//! memory: a page is backed only once written. Output is unchanged.

/// The pad: a thread heap's whole 64 MiB (glibc's `HEAP_MAX_SIZE` on 64-bit
/// targets), so no heap grows page by page.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: std::ffi::c_int = 64 << 20;

/// Sets glibc's `M_TOP_PAD` to [`TOP_PAD`]; call it first in `main`, before
/// any thread allocates. Elsewhere (not glibc), nothing.
pub(crate) fn grow_heaps_whole() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // glibc's malloc.h: `#define M_TOP_PAD -2`.
        const M_TOP_PAD: std::ffi::c_int = -2;
        extern "C" {
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        // SAFETY: mallopt only sets a tuning parameter of glibc's allocator;
        // it fails (returns 0) on a value it refuses, which leaves the default.
        unsafe {
            mallopt(M_TOP_PAD, TOP_PAD);
        }
    }
}
