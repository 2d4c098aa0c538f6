module {
  irdl.dialect @acopy {
    irdl.operation @barrier_init {
      %0 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %1 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %2 = irdl.all_of(%0, %1) 
      irdl.operands(barrier: %2)
    }
    irdl.operation @barrier_wait {
      %0 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %1 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %2 = irdl.all_of(%0, %1) 
      %3 = irdl.is i1 
      irdl.operands(barrier: %2, parity: %3)
    }
    irdl.operation @copy_gmem_to_smem {
      %0 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %1 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %2 = irdl.all_of(%0, %1) 
      %3 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %4 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %5 = irdl.all_of(%3, %4) 
      %6 = irdl.is index 
      %7 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %8 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %9 = irdl.all_of(%7, %8) 
      %10 = irdl.is i1 
      irdl.operands(src: %2, dst: %5, indices: variadic %6, barrier: optional %9, predicate: optional %10)
    }
    irdl.operation @copy_smem_to_gmem {
      %0 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %1 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %2 = irdl.all_of(%0, %1) 
      %3 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %4 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %5 = irdl.all_of(%3, %4) 
      %6 = irdl.is index 
      %7 = irdl.is i1 
      irdl.operands(src: %2, dst: %5, indices: variadic %6, predicate: optional %7)
    }
    irdl.operation @swizzled_index {
      %0 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %1 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %2 = irdl.all_of(%0, %1) 
      %3 = irdl.is index 
      %4 = irdl.is index 
      %5 = irdl.is index 
      %6 = irdl.is index 
      irdl.operands(tile: %2, row: %3, col: %4)
      irdl.results(physical_row: %5, physical_col: %6)
    }
    irdl.operation @wait_gmem_to_smem 
    irdl.operation @wait_smem_to_gmem 
    irdl.operation @wgmma_descriptor {
      %0 = irdl.c_pred "(::llvm::isa<::mlir::MemRefType>($_self))" 
      %1 = irdl.c_pred "[](::mlir::Type elementType) { return (true); }(::llvm::cast<::mlir::ShapedType>($_self).getElementType())" 
      %2 = irdl.all_of(%0, %1) 
      %3 = irdl.is index 
      %4 = irdl.is i64 
      irdl.operands(tile: %2, k: %3)
      irdl.results(descriptor: %4)
    }
  }
}
