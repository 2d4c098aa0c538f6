// `acopy-vector-to-scf`: upstream's `convert-vector-to-scf` on an op that
// holds a vector op, nothing on one that holds none (vector_to_scf.rs says
// why). In C++ because only a C++ pass can run a nested pipeline
// (`Pass::runPipeline`); the C API has no such call. Built by
// passes/build.rs with the `cc` crate against the LLVM 22 headers mlir-sys
// links.

#include <string>

#include "mlir-c/Pass.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace {

struct VectorToScfWhereVector
    : public mlir::PassWrapper<VectorToScfWhereVector, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VectorToScfWhereVector)

  VectorToScfWhereVector(std::string prefix, std::string argument,
                         std::string description)
      : prefix(std::move(prefix)), argument(std::move(argument)),
        description(std::move(description)),
        pipeline(mlir::OpPassManager::Nesting::Implicit) {
    pipeline.addPass(mlir::createConvertVectorToSCFPass());
  }
  VectorToScfWhereVector(const VectorToScfWhereVector &other)
      : PassWrapper(other), prefix(other.prefix), argument(other.argument),
        description(other.description), pipeline(other.pipeline) {}

  llvm::StringRef getArgument() const override { return argument; }
  llvm::StringRef getDescription() const override { return description; }
  // The name --mlir-timing shows: the pipeline's, not the C++ class's.
  llvm::StringRef getName() const override { return argument; }

  // The nested pass's dialects, loaded before any thread runs it.
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    pipeline.getDependentDialects(registry);
  }

  void runOnOperation() override {
    llvm::StringRef vector = prefix;
    bool any = getOperation()
                   ->walk([&](mlir::Operation *op) {
                     return op->getName().getStringRef().starts_with(vector)
                                ? mlir::WalkResult::interrupt()
                                : mlir::WalkResult::advance();
                   })
                   .wasInterrupted();
    if (!any) {
      markAllAnalysesPreserved();
      return;
    }
    if (mlir::failed(runPipeline(pipeline, getOperation())))
      signalPassFailure();
  }

  std::string prefix;
  std::string argument;
  std::string description;
  mlir::OpPassManager pipeline;
};

} // namespace

// The pass; `prefix` is the vector dialect's op-name prefix ("vector."),
// `argument` and `description` its pipeline name and --help line.
extern "C" MlirPass acopyCreateVectorToScfWhereVector(MlirStringRef prefix,
                                                      MlirStringRef argument,
                                                      MlirStringRef description) {
  return wrap(static_cast<mlir::Pass *>(
      new VectorToScfWhereVector(unwrap(prefix).str(), unwrap(argument).str(),
                                 unwrap(description).str())));
}
