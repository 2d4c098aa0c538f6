irdl.dialect @acopy {
  irdl.operation @copy_gmem_to_smem {
    %src = irdl.base "!builtin.memref"
    %dst = irdl.base "!builtin.memref"
    %index = irdl.is index
    %barrier = irdl.base "!builtin.memref"
    %i1 = irdl.is i1
    irdl.operands(src: %src, dst: %dst, indices: variadic %index, barrier: optional %barrier, predicate: optional %i1)
  }
  irdl.operation @wait_gmem_to_smem {
    irdl.operands()
  }
  irdl.operation @barrier_init {
    %memref = irdl.base "!builtin.memref"
    irdl.operands(barrier: %memref)
  }
  irdl.operation @barrier_wait {
    %memref = irdl.base "!builtin.memref"
    %i1 = irdl.is i1
    irdl.operands(barrier: %memref, parity: %i1)
  }
  irdl.operation @copy_smem_to_gmem {
    %src = irdl.base "!builtin.memref"
    %dst = irdl.base "!builtin.memref"
    %index = irdl.is index
    %i1 = irdl.is i1
    irdl.operands(src: %src, dst: %dst, indices: variadic %index, predicate: optional %i1)
  }
  irdl.operation @wait_smem_to_gmem {
    irdl.operands()
  }
}
