// A module borrows the context it was built in: compiling it after the
// context is gone is refused, not a use-after-free inside MLIR.
fn main() {
    let context = acopy::create_context().unwrap();
    let module = acopy::dialect::kernel::container_module(acopy::melior::ir::Location::unknown(&context));
    drop(context);
    let _ = acopy::compile(&module, &acopy::Options::default());
}
