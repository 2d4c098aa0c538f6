// The C++ half of the mlir-opt plugin: what the MLIR C API cannot do.
//
// - Registering a pass by name in MLIR's global pass registry (the C API
//   has no mlirRegisterPass), so that mlir-opt's --pass-pipeline and
//   --acopy-lower flags find acopy's passes.
// - Options: a pass from mlirCreateExternalPass declares none, so MLIR would
//   refuse `acopy-lower{chip=sm_90}`. AcopyPass takes the text between the
//   braces and hands it to the Rust registry (capi/src/plugin.rs), which
//   parses it as acopy-opt's --pass-pipeline does and builds the Rust pass;
//   AcopyPass runs that pass as a one-pass dynamic pipeline on its op.
//
// The passes themselves stay Rust (passes/); nothing here looks at IR.

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include <memory>
#include <string>

extern "C" {
// Rust, capi/src/plugin.rs: the acopy pass registry (passes/src/registry.rs).
size_t acopy_plugin_pass_count(void);
const char *acopy_plugin_pass_argument(size_t index);
const char *acopy_plugin_pass_summary(size_t index);
// The pass `index` built from `options`; a null pass after calling `error`
// with the message when the options are refused.
MlirPass acopy_plugin_create_pass(size_t index, MlirStringRef options,
                                  void (*error)(MlirStringRef, void *),
                                  void *data);
// dialect/src/dialect.cpp.
MlirDialectHandle mlirGetDialectHandle__acopy__(void);
}

namespace {

// One TypeID per registered pass: the address of its byte. More bytes than
// the registry has passes; acopy_cxx_register_passes checks.
char passIds[32];

void appendMessage(MlirStringRef text, void *data) {
  static_cast<std::string *>(data)->append(text.data, text.length);
}

class AcopyPass final : public mlir::Pass {
public:
  explicit AcopyPass(size_t index)
      : mlir::Pass(mlir::TypeID::getFromOpaquePointer(&passIds[index])),
        index(index), argument(acopy_plugin_pass_argument(index)),
        summary(acopy_plugin_pass_summary(index)) {
    // The defaults never fail to parse; a pass is runnable before (or
    // without) initializeOptions.
    (void)build("", [](const llvm::Twine &) { return mlir::failure(); });
  }

  llvm::StringRef getName() const override { return argument; }
  llvm::StringRef getArgument() const override { return argument; }
  llvm::StringRef getDescription() const override { return summary; }

  // The acopy passes run on any op (builtin.module in practice), as
  // mlirCreateExternalPass's do.
  bool canScheduleOn(mlir::RegisteredOperationName) const override {
    return true;
  }

  // Not Pass::initializeOptions: it knows only declared cl-style options, and
  // acopy's are parsed by the same Rust code as acopy-opt's.
  mlir::LogicalResult initializeOptions(
      llvm::StringRef text,
      llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler)
      override {
    return build(text, errorHandler);
  }

  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    pipeline->getDependentDialects(registry);
  }

  void runOnOperation() override {
    if (mlir::failed(runPipeline(*pipeline, getOperation())))
      signalPassFailure();
  }

  std::unique_ptr<mlir::Pass> clonePass() const override {
    auto copy = std::make_unique<AcopyPass>(index);
    (void)copy->build(options,
                      [](const llvm::Twine &) { return mlir::failure(); });
    return copy;
  }

private:
  mlir::LogicalResult build(
      llvm::StringRef text,
      llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler) {
    std::string message;
    MlirPass pass = acopy_plugin_create_pass(
        index, mlirStringRefCreate(text.data(), text.size()), appendMessage,
        &message);
    if (!pass.ptr)
      return errorHandler(message);
    options = text.str();
    // Op-agnostic, like the pass it holds.
    pipeline = std::make_unique<mlir::OpPassManager>();
    pipeline->addPass(std::unique_ptr<mlir::Pass>(unwrap(pass)));
    return mlir::success();
  }

  size_t index;
  llvm::StringRef argument;
  llvm::StringRef summary;
  std::string options;
  std::unique_ptr<mlir::OpPassManager> pipeline;
};

} // namespace

extern "C" {

// Registers every acopy pass in MLIR's global registry (the host's, since
// this library shares its libMLIR.so). Returns false when the registry has
// more passes than passIds has bytes (a change to passes/src/registry.rs
// that this file must follow; capi/src/plugin.rs tests it).
bool acopy_cxx_register_passes(void) {
  size_t count = acopy_plugin_pass_count();
  if (count > sizeof(passIds))
    return false;
  for (size_t index = 0; index < count; ++index)
    mlir::registerPass([index] { return std::make_unique<AcopyPass>(index); });
  return true;
}

void acopy_cxx_register_dialects(MlirDialectRegistry registry) {
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__acopy__(), registry);
}

uint32_t acopy_cxx_plugin_api_version(void) { return MLIR_PLUGIN_API_VERSION; }

} // extern "C"
