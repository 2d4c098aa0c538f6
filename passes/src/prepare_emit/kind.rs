//! What `--emit` produces: the one `Emit`, shared by the facade, the driver
//! and `acopy-prepare-emit`.

/// What to produce from each `gpu.module`: the facade's `Options::emit` and
/// the driver's `--emit`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Emit {
    /// The IR after the acopy passes, as MLIR.
    Mlir,
    /// LLVM IR text.
    Llvm,
    /// PTX assembly.
    #[default]
    Ptx,
}

impl Emit {
    /// Every kind, in the order `--emit` lists them.
    pub const ALL: [Emit; 3] = [Emit::Mlir, Emit::Llvm, Emit::Ptx];

    /// The name `--emit` and the `emit=` pass option take.
    pub fn name(self) -> &'static str {
        match self {
            Emit::Mlir => "mlir",
            Emit::Llvm => "llvm",
            Emit::Ptx => "ptx",
        }
    }

    /// The kind named `name` ([`Emit::name`]).
    pub fn parse(name: &str) -> Option<Emit> {
        Emit::ALL.into_iter().find(|emit| emit.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Emit;

    #[test]
    fn names_round_trip() {
        for emit in Emit::ALL {
            assert_eq!(Emit::parse(emit.name()), Some(emit));
        }
        assert_eq!(Emit::parse("PTX"), None);
        assert_eq!(Emit::default(), Emit::Ptx);
    }
}
