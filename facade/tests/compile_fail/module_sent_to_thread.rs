// MLIR contexts are not thread-safe: a module cannot move to another thread.
// Each thread creates its own context (docs/embedding.md, "Threads").
fn main() {
    let context = acopy::create_context().unwrap();
    let module = acopy::dialect::kernel::container_module(acopy::melior::ir::Location::unknown(&context));
    std::thread::scope(|scope| {
        scope.spawn(|| acopy::compile(&module, &acopy::Options::default()));
    });
}
