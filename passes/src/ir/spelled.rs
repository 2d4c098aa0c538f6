//! The attributes melior has no typed constructor for, each spelled once in
//! MLIR syntax and parsed (once per run and spelling, `crate::run_cache`).
//! Everything else the passes build is typed (`IntegerAttribute`,
//! `DenseI32ArrayAttribute`, `MemRefType`, ...). The unit test parses every
//! spelling here, so a dialect change that breaks one fails `cargo test`.

use melior::{
    ir::{Attribute, Type},
    Context,
};

fn parsed<'c>(context: &'c Context, text: &str) -> Result<Attribute<'c>, String> {
    crate::run_cache::attribute(context, text)
        .ok_or_else(|| format!("internal error: cannot parse attribute {text}"))
}

/// `#gpu<dim x>` for `dim` in `x`, `y`, `z`.
pub(crate) fn gpu_dim<'c>(context: &'c Context, dim: &str) -> Result<Attribute<'c>, String> {
    // Spelled whole rather than formatted: the lowering asks per copy.
    let text = match dim {
        "x" => "#gpu<dim x>",
        "y" => "#gpu<dim y>",
        "z" => "#gpu<dim z>",
        _ => return parsed(context, &format!("#gpu<dim {dim}>")),
    };
    parsed(context, text)
}

/// `#gpu.address_space<workgroup>`: shared memory, as `gpu` spells it.
pub(crate) fn workgroup_space(context: &Context) -> Result<Attribute<'_>, String> {
    parsed(context, "#gpu.address_space<workgroup>")
}

/// `#nvvm.proxy_kind<async.shared>`, the kind of `nvvm.fence.proxy`.
pub(crate) fn proxy_kind_async_shared(context: &Context) -> Result<Attribute<'_>, String> {
    parsed(context, "#nvvm.proxy_kind<async.shared>")
}

/// `#nvvm.shared_space<cta>`, the space of `nvvm.fence.proxy`.
pub(crate) fn shared_space_cta(context: &Context) -> Result<Attribute<'_>, String> {
    parsed(context, "#nvvm.shared_space<cta>")
}

/// `#nvvm<load_cache_modifier ca>` or `cg`, for `nvvm.cp.async.shared.global`.
pub(crate) fn load_cache_modifier<'c>(
    context: &'c Context,
    cache: &str,
) -> Result<Attribute<'c>, String> {
    parsed(context, &format!("#nvvm<load_cache_modifier {cache}>"))
}

/// `#nvvm.tma_redux_kind<add>` and the other reduction kinds of a TMA store.
pub(crate) fn tma_redux_kind<'c>(
    context: &'c Context,
    kind: &str,
) -> Result<Attribute<'c>, String> {
    parsed(context, &format!("#nvvm.tma_redux_kind<{kind}>"))
}

/// `#nvvm.cta_group<cta_2>`, a TMA load of a CTA pair.
pub(crate) fn cta_group_pair(context: &Context) -> Result<Attribute<'_>, String> {
    parsed(context, "#nvvm.cta_group<cta_2>")
}

/// `#nvvm<action increase>` or `decrease`, what `nvvm.setmaxregister` does.
pub(crate) fn set_max_register_action(
    context: &Context,
    increase: bool,
) -> Result<Attribute<'_>, String> {
    let action = if increase { "increase" } else { "decrease" };
    parsed(context, &format!("#nvvm<action {action}>"))
}

/// `#llvm.linkage<external>`, for a global defined outside the module.
pub(crate) fn linkage_external(context: &Context) -> Result<Attribute<'_>, String> {
    parsed(context, "#llvm.linkage<external>")
}

/// `#nvvm.target<O = level, chip = "...", features = "...">`.
pub(crate) fn nvvm_target<'c>(
    context: &'c Context,
    level: impl std::fmt::Display,
    chip: &str,
    features: &str,
) -> Result<Attribute<'c>, String> {
    let text = format!("#nvvm.target<O = {level}, chip = \"{chip}\", features = \"{features}\">");
    Attribute::parse(context, &text).ok_or_else(|| format!("internal error: cannot build {text}"))
}

/// A tensor map's element type (`bf16`, `f8E4M3FN`, ...), as MLIR spells it.
pub(crate) fn element_type(
    context: &Context,
    element: acopy_manifest::ElementType,
) -> Result<Type<'_>, String> {
    let name = element.mlir_name();
    Type::parse(context, name)
        .ok_or_else(|| format!("internal error: MLIR cannot parse the element type `{name}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spelling above parses in the passes' context, for every value
    /// the passes give it.
    #[test]
    fn every_spelling_parses() {
        let context = crate::context::create_context().expect("a context");
        let context = &context;
        let mut all = vec![
            workgroup_space(context),
            proxy_kind_async_shared(context),
            shared_space_cta(context),
            cta_group_pair(context),
            linkage_external(context),
            set_max_register_action(context, true),
            set_max_register_action(context, false),
        ];
        all.extend(["x", "y", "z"].map(|dim| gpu_dim(context, dim)));
        all.extend(["ca", "cg"].map(|cache| load_cache_modifier(context, cache)));
        all.extend(
            ["add", "min", "max", "inc", "dec", "and", "or", "xor"]
                .map(|kind| tma_redux_kind(context, kind)),
        );
        for attribute in all {
            assert!(attribute.is_ok(), "{attribute:?}");
        }
        assert!(gpu_dim(context, "w").is_err(), "a bad spelling is refused");
        for chip in acopy_target::Chip::all() {
            let target = nvvm_target(context, 3, chip.llvm_cpu(), &chip.ptx_version().feature());
            assert!(target.is_ok(), "{target:?}");
        }
        use acopy_manifest::ElementType as E;
        for element in [
            E::F16,
            E::BF16,
            E::F32,
            E::F64,
            E::I8,
            E::I16,
            E::I32,
            E::I64,
            E::F8E4M3FN,
            E::F8E5M2,
        ] {
            assert!(element_type(context, element).is_ok(), "{element:?}");
        }
    }
}
