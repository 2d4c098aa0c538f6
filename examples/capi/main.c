/* A C frontend on acopy's C API (include/acopy/acopy.h): compiles the two
 * worked examples to PTX for sm_80 (cp.async) and sm_90 (TMA) with their
 * manifest, runs acopy-lower in its own pass manager, reads a verification
 * error as data, and shows that null and foreign handles come back as error
 * values. Built and run by build.sh (scripts/test.sh runs it).
 *
 * Usage: capi-example EXAMPLES_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acopy/acopy.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

static int failures = 0;

static void expect(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

static char *read_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  size_t read = fread(text, 1, (size_t)size, file);
  text[read] = '\0';
  fclose(file);
  return text;
}

static MlirModule parse(MlirContext context, const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *text = read_file(path);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  MlirModule module = mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
  free(text);
  return module;
}

static void print_diagnostics(const AcopyResult *result) {
  static const char *severities[] = {"error", "warning", "remark", "note"};
  for (intptr_t i = 0; i < acopyResultGetNumDiagnostics(result); ++i) {
    AcopyDiagnostic d;
    acopyResultGetDiagnostic(result, i, &d);
    printf("%s:%u:%u: %s: %s [rule %s]\n", d.file ? d.file : "?", d.line, d.column,
           severities[d.severity], d.message, d.rule ? d.rule : "none");
  }
}

/* Compiles one example to PTX; prints each module's .target line. */
static void compile_example(MlirContext context, const char *dir, const char *name) {
  MlirModule module = parse(context, dir, name);
  expect(!mlirModuleIsNull(module), "the example parses");
  AcopyResult *result = NULL;
  AcopyOptions options = acopyOptionsDefault();
  AcopyStatus status = acopyCompile(mlirModuleGetOperation(module), &options, &result);
  expect(status == ACOPY_STATUS_OK, "acopyCompile succeeds");
  print_diagnostics(result);
  for (intptr_t i = 0; i < acopyResultGetNumOutputs(result); ++i) {
    AcopyOutput output;
    acopyResultGetOutput(result, i, &output);
    const char *target = strstr(output.text, ".target ");
    int length = target ? (int)strcspn(target, "\n") : 0;
    printf("%s: gpu.module @%s for %s: %.*s\n", name, output.module,
           output.chip ? output.chip : "?", length, target ? target : "");
  }
  const char *manifest = acopyResultGetManifestJson(result);
  expect(manifest && strstr(manifest, "\"kernels\""), "the manifest is JSON with kernels");
  printf("%s: manifest has %s\n", name,
         strstr(manifest ? manifest : "", "\"box\"") ? "tensor maps" : "no tensor maps");
  expect(acopyResultDestroy(result) == ACOPY_STATUS_OK, "a result is destroyed once");
  mlirModuleDestroy(module);
}

/* acopy-lower with a chip option in the frontend's own pass manager, then
 * the manifest read between the two pass managers. */
static void own_pass_manager(MlirContext context, const char *dir) {
  MlirModule module = parse(context, dir, "tile_copy_sm90.mlir");
  MlirPassManager manager = mlirPassManagerCreate(context);
  AcopyResult *result = NULL;
  AcopyStatus status = acopyAddPass(mlirPassManagerGetAsOpPassManager(manager),
                                    "acopy-lower", "chip=sm_90a", &result);
  expect(status == ACOPY_STATUS_OK, "acopyAddPass acopy-lower{chip=sm_90a}");
  acopyResultDestroy(result);
  MlirLogicalResult ran = mlirPassManagerRunOnOp(manager, mlirModuleGetOperation(module));
  expect(mlirLogicalResultIsSuccess(ran), "the pass manager runs acopy-lower");
  AcopyOptions options = acopyOptionsDefault();
  options.chip = "sm_90a";
  status = acopyManifest(mlirModuleGetOperation(module), &options, &result);
  expect(status == ACOPY_STATUS_OK, "acopyManifest after acopy-lower");
  const char *manifest = acopyResultGetManifestJson(result);
  printf("own pass manager: acopy-lower{chip=sm_90a}: manifest has %s\n",
         strstr(manifest ? manifest : "", "\"box\"") ? "tensor maps" : "no tensor maps");
  acopyResultDestroy(result);
  /* An option acopy refuses: a value, with acopy-opt's message. */
  status = acopyAddPass(mlirPassManagerGetAsOpPassManager(manager), "acopy-lower",
                        "frobnicate=1", &result);
  expect(status == ACOPY_STATUS_INVALID_ARGUMENT, "a refused option is INVALID_ARGUMENT");
  printf("refused option: %s\n", acopyResultGetMessage(result));
  acopyResultDestroy(result);
  mlirPassManagerDestroy(manager);
  mlirModuleDestroy(module);
}

/* An sm_90 copy without a barrier: an error with its rule id, as data. */
static void verification_error(MlirContext context) {
  const char *text =
      "gpu.module @m [#nvvm.target<chip = \"sm_90\">] {\n"
      "  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {\n"
      "    acopy.copy_gmem_to_smem %src[%i, %i] -> %dst : memref<256x512xf32> -> memref<64x128xf32, 3>\n"
      "    gpu.return\n"
      "  }\n"
      "}\n";
  MlirModule module = mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
  expect(!mlirModuleIsNull(module), "the invalid kernel parses");
  AcopyResult *result = NULL;
  AcopyStatus status = acopyVerify(mlirModuleGetOperation(module), NULL, &result);
  expect(status == ACOPY_STATUS_DIAGNOSED, "acopyVerify reports the error");
  print_diagnostics(result);
  AcopyDiagnostic first;
  expect(acopyResultGetDiagnostic(result, 0, &first) == ACOPY_STATUS_OK && first.rule &&
             strcmp(first.rule, "E6") == 0 && first.line == 3,
         "the error is rule E6 at line 3");
  acopyResultDestroy(result);
  mlirModuleDestroy(module);
}

/* Null and foreign handles are error values, never a crash. */
static void bad_handles(MlirContext context) {
  MlirOperation null_op = {NULL};
  AcopyResult *result = NULL;
  expect(acopyCompile(null_op, NULL, &result) == ACOPY_STATUS_NULL_HANDLE, "null module");
  printf("null module: %s\n", acopyResultGetMessage(result));
  acopyResultDestroy(result);
  MlirContext null_context = {NULL};
  expect(acopyRegisterDialect(null_context) == ACOPY_STATUS_NULL_HANDLE, "null context");
  MlirOpPassManager null_manager = {NULL};
  expect(acopyAddPass(null_manager, "acopy-lower", NULL, NULL) == ACOPY_STATUS_NULL_HANDLE,
         "null pass manager");
  /* An op that is not a builtin.module. */
  MlirModule module = mlirModuleCreateParse(
      context, mlirStringRefCreateFromCString("func.func @f() { return }"));
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  expect(acopyVerify(func, NULL, &result) == ACOPY_STATUS_FOREIGN_HANDLE, "a func.func");
  printf("foreign op: %s\n", acopyResultGetMessage(result));
  acopyResultDestroy(result);
  mlirModuleDestroy(module);
  /* Results acopy did not make, or already freed. */
  AcopyResult *made_up = (AcopyResult *)&failures;
  expect(acopyResultGetNumOutputs(made_up) == -1, "a made-up result has no outputs");
  expect(acopyResultGetMessage(made_up) == NULL, "a made-up result has no message");
  expect(acopyResultDestroy(made_up) == ACOPY_STATUS_FOREIGN_HANDLE, "a made-up result");
  expect(acopyResultDestroy(result) == ACOPY_STATUS_FOREIGN_HANDLE, "a result freed twice");
  expect(acopyResultGetStatus(NULL) == ACOPY_STATUS_NULL_HANDLE, "a null result");
  /* An enum value the header does not have. */
  AcopyOptions options = acopyOptionsDefault();
  options.emit = (AcopyEmit)7;
  MlirModule empty = mlirModuleCreateEmpty(mlirLocationUnknownGet(context));
  expect(acopyCompile(mlirModuleGetOperation(empty), &options, &result) ==
             ACOPY_STATUS_INVALID_ARGUMENT,
         "emit = 7");
  printf("bad option: %s\n", acopyResultGetMessage(result));
  acopyResultDestroy(result);
  mlirModuleDestroy(empty);
  printf("null and foreign handles: error values\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s EXAMPLES_DIR\n", argv[0]);
    return 2;
  }
  MlirContext context = mlirContextCreate();
  expect(acopyPrepareContext(context) == ACOPY_STATUS_OK, "acopyPrepareContext");
  compile_example(context, argv[1], "tile_copy_sm80.mlir");
  compile_example(context, argv[1], "tile_copy_sm90.mlir");
  own_pass_manager(context, argv[1]);
  verification_error(context);
  bad_handles(context);
  mlirContextDestroy(context);
  if (failures)
    fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
