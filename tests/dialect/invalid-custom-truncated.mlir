// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// Custom forms cut short (each case ends where its chunk ends): every one is a
// located error at the op, never a silent exit.

func.func @after_the_colon(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected non-function type}}
  acopy.barrier_init %b :
// -----
func.func @after_the_operand(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected ':'}}
  acopy.barrier_init %b
// -----
func.func @inside_the_indices(%src: memref<256x512xf32>, %i: index) {
  // expected-error @+1 {{expected SSA operand}}
  acopy.copy_gmem_to_smem %src[%i,
// -----
func.func @after_the_arrow(%src: memref<256x512xf32>, %i: index) {
  // expected-error @+1 {{expected SSA operand}}
  acopy.copy_gmem_to_smem %src[%i, %i] ->
// -----
func.func @inside_the_barrier(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected ')'}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst barrier(%b :
// -----
func.func @after_if(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{expected ':'}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst if
// -----
func.func @before_the_dst_type(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{expected non-function type}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst : memref<256x512xf32> ->
// -----
func.func @inside_the_attributes() {
  // expected-error @+1 {{expected '}' in attribute dictionary}}
  acopy.wait_gmem_to_smem {pending = 0 : i64
// -----
func.func @after_the_comma(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected SSA operand}}
  acopy.barrier_wait %b,
// -----
func.func @inside_the_store_type(%src: memref<64x128xf32, 3>, %dst: memref<256x512xf32>, %i: index) {
  // expected-error @+1 {{expected non-function type}}
  acopy.copy_smem_to_gmem %src -> %dst[%i, %i] : memref<64x128xf32, 3> -> memref<256x
// -----
func.func @after_the_op(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected operation name in quotes}}
  acopy.wait_smem_to_gmem
