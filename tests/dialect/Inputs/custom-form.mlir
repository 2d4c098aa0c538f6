func.func @f(%b: memref<1xi64, 3>) {
  acopy.barrier_init %b : memref<1xi64, 3>
  return
}
