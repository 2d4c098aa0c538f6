// Remarks and warnings through MLIR's diagnostic engine. The MLIR C API only
// has mlirEmitError; these two mirror it for the other severities, so that
// context handlers (the driver's --verify-diagnostics, embedders' collectors)
// see them as real diagnostics. Built by dialect/build.rs with the `cc` crate
// against the same LLVM 22 headers mlir-sys links.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

extern "C" void acopyEmitRemark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location)) << message;
}

extern "C" void acopyEmitWarning(MlirLocation location, const char *message) {
  mlir::emitWarning(unwrap(location)) << message;
}
