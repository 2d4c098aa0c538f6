// A C++ frontend with its own MLIRContext and module (MLIR's C++ API) handing
// them to acopy through the C API: wrap() turns the C++ objects into the C
// handles acopy.h takes. docs/embedding.md shows this file; build.sh builds it.
#include "acopy/acopy.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  mlir::MLIRContext context;
  if (acopyPrepareContext(wrap(&context)) != ACOPY_STATUS_OK)
    return 1;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  AcopyResult *result = nullptr;
  AcopyOptions options = acopyOptionsDefault(); // PTX for each module's chip
  AcopyStatus status = acopyCompile(wrap(module->getOperation()), &options, &result);
  for (intptr_t i = 0; i < acopyResultGetNumDiagnostics(result); ++i) {
    AcopyDiagnostic d;
    acopyResultGetDiagnostic(result, i, &d);
    std::fprintf(stderr, "%s:%u:%u: %s\n", d.file, d.line, d.column, d.message);
  }
  for (intptr_t i = 0; i < acopyResultGetNumOutputs(result); ++i) {
    AcopyOutput output;
    acopyResultGetOutput(result, i, &output);
    const char *target = std::strstr(output.text, ".target ");
    int length = target ? int(std::strcspn(target, "\n")) : 0;
    std::printf("C++ frontend: gpu.module @%s for %s: %.*s\n", output.module,
                output.chip ? output.chip : "?", length, target ? target : "");
  }
  acopyResultDestroy(result);
  return status == ACOPY_STATUS_OK ? 0 : 1;
}
