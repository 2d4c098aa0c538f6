// The acopy dialect's ops and their assembly format (docs/dialect.md).
//
// ODS declares only what MLIR's own verifier and the parser need: the operand
// kinds (memref, index, i1), which operands are optional or variadic, and the
// attribute names. The attributes stay AnyAttr on purpose: their values, the
// memory spaces, the ranks and the index counts are checked by the Rust views
// and the rules table (dialect/src/ops, passes/src/verify), whose messages are
// documented word for word (docs/verification.md). A narrower ODS constraint
// would pre-empt those messages with its own.
//
// dialect/build.rs runs mlir-tblgen on this file; dialect/acopy.irdl.mlir is
// generated from it by tblgen-to-irdl (dialect/gen-irdl.sh).

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Acopy_Dialect : Dialect {
  let name = "acopy";
  let cppNamespace = "::acopy";
  let summary = "Asynchronous global to shared memory copies for NVIDIA GPUs";
}

class Acopy_Op<string mnemonic, list<Trait> traits = []>
    : Op<Acopy_Dialect, mnemonic, traits>;

def Acopy_CopyGmemToSmemOp
    : Acopy_Op<"copy_gmem_to_smem", [AttrSizedOperandSegments]> {
  let summary = "asynchronous copy of a global window into a shared tile";
  let arguments = (ins
    AnyMemRef:$src,
    AnyMemRef:$dst,
    Variadic<Index>:$indices,
    Optional<AnyMemRef>:$barrier,
    Optional<I1>:$predicate,
    OptionalAttr<AnyAttr>:$oob_mode,
    OptionalAttr<AnyAttr>:$collective_axes,
    OptionalAttr<AnyAttr>:$leader_tracked,
    OptionalAttr<AnyAttr>:$partition_axis,
    OptionalAttr<AnyAttr>:$swizzle,
    OptionalAttr<AnyAttr>:$assume_aligned_start
  );
  let assemblyFormat = [{
    $src `[` $indices `]` `->` $dst
    (`barrier` `(` $barrier^ `:` type($barrier) `)`)?
    (`if` $predicate^)?
    attr-dict `:` type($src) `->` type($dst)
  }];
}

def Acopy_WaitGmemToSmemOp : Acopy_Op<"wait_gmem_to_smem"> {
  let summary = "wait for the block's copy groups";
  let arguments = (ins OptionalAttr<AnyAttr>:$pending);
  let assemblyFormat = "attr-dict";
}

def Acopy_BarrierInitOp : Acopy_Op<"barrier_init"> {
  let summary = "initialise an mbarrier";
  let arguments = (ins AnyMemRef:$barrier, OptionalAttr<AnyAttr>:$arrival_count);
  let assemblyFormat = "$barrier attr-dict `:` type($barrier)";
}

def Acopy_BarrierWaitOp : Acopy_Op<"barrier_wait"> {
  let summary = "wait for the phase of an mbarrier with the given parity";
  let arguments = (ins AnyMemRef:$barrier, I1:$parity);
  let assemblyFormat = "$barrier `,` $parity attr-dict `:` type($barrier)";
}

def Acopy_CopySmemToGmemOp
    : Acopy_Op<"copy_smem_to_gmem", [AttrSizedOperandSegments]> {
  let summary = "asynchronous store of a shared tile into a global window";
  let arguments = (ins
    AnyMemRef:$src,
    AnyMemRef:$dst,
    Variadic<Index>:$indices,
    Optional<I1>:$predicate,
    OptionalAttr<AnyAttr>:$commit_group,
    OptionalAttr<AnyAttr>:$reduction_op,
    OptionalAttr<AnyAttr>:$swizzle,
    OptionalAttr<AnyAttr>:$assume_aligned_start
  );
  let assemblyFormat = [{
    $src `->` $dst `[` $indices `]`
    (`if` $predicate^)?
    attr-dict `:` type($src) `->` type($dst)
  }];
}

def Acopy_WaitSmemToGmemOp : Acopy_Op<"wait_smem_to_gmem"> {
  let summary = "wait for the block's store groups";
  let arguments = (ins
    OptionalAttr<AnyAttr>:$pending,
    OptionalAttr<AnyAttr>:$read_only
  );
  let assemblyFormat = "attr-dict";
}

def Acopy_WgmmaDescriptorOp : Acopy_Op<"wgmma_descriptor"> {
  let summary = "the wgmma shared-memory matrix descriptor of an acopy tile";
  let description = [{
    The 64-bit matrix descriptor with which `wgmma.mma_async` reads the
    operand of K step `k` from `tile`: a shared tile that acopy copies wrote
    with a swizzle, read K-major (`k` elements into each row) or, with
    `major = "mn"`, MN-major (`k` rows down; docs/dialect.md,
    "acopy.wgmma_descriptor"). The swizzle and the layout are those of the
    copies that write the tile.
  }];
  let arguments = (ins
    AnyMemRef:$tile,
    Index:$k,
    OptionalAttr<AnyAttr>:$major
  );
  let results = (outs I64:$descriptor);
  let assemblyFormat = "$tile `[` $k `]` attr-dict `:` type($tile)";
}

def Acopy_SwizzledIndexOp : Acopy_Op<"swizzled_index"> {
  let summary = "where a logical element of an acopy tile is stored";
  let description = [{
    The physical (row, column) of logical element (`row`, `col`) of a shared
    `tile` that acopy copies wrote, in the tile's own indices: `memref.load
    %tile[%prow, %pcol]` reads the logical element (docs/dialect.md,
    "acopy.swizzled_index"). The swizzle and the layout are those of the
    copies that write the tile.
  }];
  let arguments = (ins
    AnyMemRef:$tile,
    Index:$row,
    Index:$col
  );
  let results = (outs Index:$physical_row, Index:$physical_col);
  let assemblyFormat = "$tile `[` $row `,` $col `]` attr-dict `:` type($tile)";
}
