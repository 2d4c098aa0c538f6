// The acopy dialect's C++ half: the op classes mlir-tblgen generates from
// dialect/acopy.td (parser, printer, ODS verifier), registered with MLIR and
// exposed to Rust as a C-API dialect handle (mlirGetDialectHandle__acopy__,
// read by dialect/src/load.rs). Built by dialect/build.rs with the `cc` crate
// against the same LLVM 22 headers mlir-sys links.

#include "mlir-c/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "AcopyDialect.h.inc"

#define GET_OP_CLASSES
#include "AcopyOps.h.inc"

#include "AcopyDialect.cpp.inc"

#define GET_OP_CLASSES
#include "AcopyOps.cpp.inc"

void acopy::AcopyDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "AcopyOps.cpp.inc"
      >();
}

// C linkage: the Rust side declares the handle function `extern "C"`.
extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Acopy, acopy);
}
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Acopy, acopy, acopy::AcopyDialect)
