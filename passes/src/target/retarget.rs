//! Retargeting a `gpu.module`: its `#nvvm.target`s name the chips it is
//! compiled for, with a PTX ISA the NVPTX backend accepts for each. The
//! lowering retargets each `gpu.module` it lowered to that chip;
//! `acopy-prepare-emit` to every chip the module is compiled for.

use acopy_target::{Chip, PtxVersion, LLVM_MAX_PTX};
use melior::ir::{attribute::ArrayAttribute, OperationRef};

use crate::ir;

/// [`retarget_all`] for one chip, for the lowering: after `acopy-lower`,
/// a `gpu.module` names the chip it was lowered for, so no upstream pass can
/// hand its instructions to the NVPTX backend for another chip or an older
/// PTX ISA.
pub(crate) fn retarget(module: OperationRef, chip: Chip) -> Result<(), String> {
    retarget_all(module, &[chip])
}

/// Replaces the module's targets with one `#nvvm.target` per chip, each
/// keeping the optimisation level its old target gave, with the chip's PTX
/// ISA or a newer one the old target asked for. Old targets are matched to
/// chips in order (one chip takes the first `#nvvm.target`).
pub(crate) fn retarget_all(module: OperationRef, chips: &[Chip]) -> Result<(), String> {
    let old: Vec<String> = ir::array_elements(module, "targets")
        .into_iter()
        .map(|target| target.to_string())
        .filter(|text| text.starts_with("#nvvm.target"))
        .collect();
    crate::ir::with_context(&module, |context| set_targets(context, module, chips, &old))
}

/// Sets `module`'s targets, one per chip (`old`: the targets it had).
fn set_targets(
    context: &melior::Context,
    module: OperationRef,
    chips: &[Chip],
    old: &[String],
) -> Result<(), String> {
    let mut targets = Vec::with_capacity(chips.len());
    for (index, chip) in chips.iter().enumerate() {
        let old = old.get(index).map(String::as_str);
        let level = old.and_then(optimisation_level);
        let ptx = old
            .and_then(ptx_feature)
            .filter(|version| *version > chip.ptx_version() && *version <= LLVM_MAX_PTX)
            .unwrap_or(chip.ptx_version());
        targets.push(crate::ir::spelled::nvvm_target(
            context,
            level.unwrap_or(2),
            chip.llvm_cpu(),
            &ptx.feature(),
        )?);
    }
    ir::set_inherent(
        module,
        "targets",
        ArrayAttribute::new(context, &targets).into(),
    );
    Ok(())
}

/// The PTX ISA of a `+ptxNN` feature in an `#nvvm.target` spelling.
fn ptx_feature(text: &str) -> Option<PtxVersion> {
    let rest = &text[text.find("+ptx")? + 4..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let number: u32 = digits.parse().ok()?;
    (digits.len() >= 2).then(|| PtxVersion::new(number / 10, number % 10))
}

/// `O = N` in an `#nvvm.target` spelling.
fn optimisation_level(text: &str) -> Option<u32> {
    let rest = &text[text.find("O = ")? + 4..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ptx_feature() {
        let text = "#nvvm.target<chip = \"sm_80\", features = \"+ptx83\">";
        assert_eq!(ptx_feature(text), Some(PtxVersion::new(8, 3)));
        assert_eq!(ptx_feature("#nvvm.target<chip = \"sm_80\">"), None);
        assert_eq!(ptx_feature("features = \"+ptx\""), None);
    }

    #[test]
    fn reads_optimisation_level() {
        assert_eq!(
            optimisation_level("#nvvm.target<O = 3, chip = \"sm_80\">"),
            Some(3)
        );
        assert_eq!(optimisation_level("#nvvm.target<chip = \"sm_80\">"), None);
    }
}
