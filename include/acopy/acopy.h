/* acopy's C API: the acopy dialect and passes for C and C++ frontends, over
 * MLIR's C API types (mlir-c/IR.h, mlir-c/Pass.h) of LLVM/MLIR 22.
 *
 * Link with libacopy_capi.so (cargo build -p acopy-capi), the shared
 * libMLIR.so and libLLVM.so of LLVM 22, and the MLIR C API archives your
 * program calls (Debian ships the C API as libMLIRCAPI*.a only);
 * examples/capi/build.sh has the command line, docs/embedding.md ("The C API
 * and the mlir-opt plugin") the why.
 *
 * Errors are values. Every function that can fail returns an AcopyStatus; a
 * null handle or a null required pointer is ACOPY_STATUS_NULL_HANDLE, a
 * handle of the wrong kind (an op that is not a builtin.module, an
 * AcopyResult that acopy did not make or has destroyed) is
 * ACOPY_STATUS_FOREIGN_HANDLE. acopy cannot tell an arbitrary pointer from an
 * MLIR object: an MlirContext that is not a context is undefined behaviour,
 * as everywhere in MLIR's C API.
 *
 * Functions taking `AcopyResult **result` store a new result there (also on
 * failure, with the reason) unless `result` is NULL; free it with
 * acopyResultDestroy. Strings a result hands out live as long as it does.
 */
#ifndef ACOPY_ACOPY_H
#define ACOPY_ACOPY_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a call made: its status, message, diagnostics, outputs, manifest. */
typedef struct AcopyResult AcopyResult;

typedef enum AcopyStatus {
  ACOPY_STATUS_OK = 0,
  /* A null handle or a null required pointer. */
  ACOPY_STATUS_NULL_HANDLE = 1,
  /* A handle acopy cannot use: not a builtin.module, not a live AcopyResult. */
  ACOPY_STATUS_FOREIGN_HANDLE = 2,
  /* An unknown pass, a refused option, a bad chip or emit kind, text that is
   * not UTF-8; the result's message says which. */
  ACOPY_STATUS_INVALID_ARGUMENT = 3,
  /* The IR has errors: they are the result's diagnostics. */
  ACOPY_STATUS_DIAGNOSED = 4,
  /* A bug in acopy (a caught panic); the result's message says where. */
  ACOPY_STATUS_INTERNAL = 5,
} AcopyStatus;

typedef enum AcopyEmit {
  ACOPY_EMIT_PTX = 0,
  ACOPY_EMIT_LLVM = 1,
  ACOPY_EMIT_MLIR = 2,
} AcopyEmit;

typedef enum AcopyThreads {
  /* Leave the module's context as the frontend set it. */
  ACOPY_THREADS_CONTEXT = 0,
  /* gpu.modules compiled in parallel on MLIR's thread pool. */
  ACOPY_THREADS_ON = 1,
  ACOPY_THREADS_OFF = 2,
} AcopyThreads;

/* What acopyVerify and acopyCompile do (acopy::Options in Rust). */
typedef struct AcopyOptions {
  /* "sm_80", "sm_90a", …: overrides every gpu.module's #nvvm.target; NULL
   * lets each module's target decide. */
  const char *chip;
  /* Fallback mode (docs/verification.md). */
  bool fallback;
  AcopyEmit emit;
  AcopyThreads threads;
} AcopyOptions;

/* PTX, no chip override, no fallback, the context's threading. */
AcopyOptions acopyOptionsDefault(void);

/* ---- Registration ------------------------------------------------------ */

/* The acopy dialect, for mlirDialectHandleInsertDialect and friends. */
MlirDialectHandle acopyGetDialectHandle(void);

/* Loads the acopy dialect into `context`. */
AcopyStatus acopyRegisterDialect(MlirContext context);

/* Makes `context` able to run acopyCompile: every upstream dialect, the LLVM
 * translations and upstream passes registered, the acopy dialect loaded.
 * Calling it again changes nothing. */
AcopyStatus acopyPrepareContext(MlirContext context);

/* Registers the acopy passes (acopy-verify, acopy-pipeline, acopy-lower,
 * acopy-prepare-emit, acopy-tensor-map-params, acopy-check-lowered) in
 * MLIR's global pass registry, so that mlirParsePassPipeline and
 * mlirOpPassManagerAddPipeline know them by name, with their options. */
AcopyStatus acopyRegisterPasses(void);

/* ---- Passes in the frontend's own pass manager ----------------------- */

/* Adds the acopy pass `name` with `options`, the text between the braces of
 * `acopy-lower{chip=sm_90 fallback=true}` (NULL or "" for none). */
AcopyStatus acopyAddPass(MlirOpPassManager manager, const char *name,
                         const char *options, AcopyResult **result);

/* Adds a pipeline that mixes acopy and upstream passes, as acopy-opt's
 * --pass-pipeline takes it: "builtin.module(acopy-lower{chip=sm_90},cse)". */
AcopyStatus acopyAddPipeline(MlirOpPassManager manager, const char *pipeline,
                             AcopyResult **result);

/* Adds the passes that take lowered IR to `options->emit` (LLVM IR or PTX);
 * run them in a second pass manager, after acopyManifest. */
AcopyStatus acopyAddEmitPasses(MlirOpPassManager manager,
                               const AcopyOptions *options,
                               AcopyResult **result);

/* The tensor-map manifest (JSON) of a module that acopy-lower has lowered
 * and the emit passes have not yet compiled: acopyResultGetManifestJson. */
AcopyStatus acopyManifest(MlirOperation module, const AcopyOptions *options,
                          AcopyResult **result);

/* ---- One call --------------------------------------------------------- */

/* acopy-verify on a copy of `module`: ACOPY_STATUS_DIAGNOSED when it has
 * errors. Every diagnostic is in the result. */
AcopyStatus acopyVerify(MlirOperation module, const AcopyOptions *options,
                        AcopyResult **result);

/* Verifies, lowers and emits a copy of `module` (left unchanged): one output
 * per gpu.module, the manifest, and the remarks and warnings; or
 * ACOPY_STATUS_DIAGNOSED with every diagnostic. */
AcopyStatus acopyCompile(MlirOperation module, const AcopyOptions *options,
                         AcopyResult **result);

/* ---- Results ---------------------------------------------------------- */

typedef enum AcopySeverity {
  ACOPY_SEVERITY_ERROR = 0,
  ACOPY_SEVERITY_WARNING = 1,
  ACOPY_SEVERITY_REMARK = 2,
  /* A note of the diagnostic before it. */
  ACOPY_SEVERITY_NOTE = 3,
} AcopySeverity;

typedef struct AcopyDiagnostic {
  AcopySeverity severity;
  /* NULL for an unknown location; otherwise the buffer's name. */
  const char *file;
  unsigned line;
  unsigned column;
  const char *message;
  /* The verification rule ("E4", "T1", "A35", …) of an error from
   * acopy-verify's rules table; NULL otherwise. */
  const char *rule;
} AcopyDiagnostic;

typedef struct AcopyOutput {
  /* The gpu.module's symbol name. */
  const char *module;
  /* The chip the text is for, or NULL when acopy cannot name one. */
  const char *chip;
  /* PTX, LLVM IR or MLIR. */
  const char *text;
} AcopyOutput;

/* The status the call that made `result` returned; ACOPY_STATUS_NULL_HANDLE
 * or ACOPY_STATUS_FOREIGN_HANDLE for a null or foreign `result`. */
AcopyStatus acopyResultGetStatus(const AcopyResult *result);

/* Why the call failed, when no diagnostic says it ("" otherwise); NULL for a
 * null or foreign result. */
const char *acopyResultGetMessage(const AcopyResult *result);

/* -1 for a null or foreign result. Notes follow their diagnostic. */
intptr_t acopyResultGetNumDiagnostics(const AcopyResult *result);
AcopyStatus acopyResultGetDiagnostic(const AcopyResult *result,
                                     intptr_t index, AcopyDiagnostic *out);

/* -1 for a null or foreign result. */
intptr_t acopyResultGetNumOutputs(const AcopyResult *result);
AcopyStatus acopyResultGetOutput(const AcopyResult *result, intptr_t index,
                                 AcopyOutput *out);

/* The manifest as JSON (the file acopy-opt --tma-manifest writes), or NULL
 * when the call made none. */
const char *acopyResultGetManifestJson(const AcopyResult *result);

/* Frees `result`. ACOPY_STATUS_FOREIGN_HANDLE, and nothing freed, for a
 * pointer acopy did not make or has already freed. */
AcopyStatus acopyResultDestroy(AcopyResult *result);

#ifdef __cplusplus
}
#endif

#endif /* ACOPY_ACOPY_H */
