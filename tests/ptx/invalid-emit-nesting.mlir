// A gpu.module --emit cannot reach gets an error at it, never silence: one
// more than 3 builtin.modules deep, or one inside another op.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=ptx
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=llvm

module {
  builtin.module {
    builtin.module {
      builtin.module {
        builtin.module {
          // expected-error @+1 {{this gpu.module is 4 builtin.modules deep; LLVM IR and PTX are compiled from gpu.modules at most 3 nested builtin.modules deep: move it up}}
          gpu.module @too_deep [#nvvm.target<chip = "sm_80">] {
            gpu.func @k() kernel {
              gpu.return
            }
          }
        }
      }
    }
  }
}

// -----

gpu.module @outer [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{this gpu.module is inside 'gpu.module'; LLVM IR and PTX are compiled from gpu.modules in builtin.modules only}}
  gpu.module @in [#nvvm.target<chip = "sm_80">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
