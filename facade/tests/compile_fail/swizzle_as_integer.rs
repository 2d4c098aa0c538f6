// A swizzle is one of four spans (acopy_manifest::Swizzle, shared by the
// dialect, the manifest and the runtime); 16 bytes cannot be written.
fn main() {
    let _ = acopy::dialect::builders::CopyOptions {
        swizzle: 16,
        ..Default::default()
    };
}
