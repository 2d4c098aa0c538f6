// A kernel's block arguments borrow the kernel: once the gpu.func is moved
// into its gpu.module, building an op on its old entry block is refused.
use acopy::dialect::{builders, kernel};
use acopy::melior::ir::{block::BlockLike, Location};

fn main() {
    let context = acopy::create_context().unwrap();
    let location = Location::unknown(&context);
    let chip = acopy::Chip::parse("sm_80").unwrap();
    let gpu_module = kernel::gpu_module(&context, location, "m", chip).unwrap();
    let function = kernel::kernel(&context, location, "k", &[], &[], &Default::default()).unwrap();
    let entry = kernel::body(&function).unwrap();
    kernel::body(&gpu_module).unwrap().append_operation(function);
    let barrier = entry.argument(0).unwrap().into();
    let _ = builders::barrier_init(&context, location, barrier, 1);
}
