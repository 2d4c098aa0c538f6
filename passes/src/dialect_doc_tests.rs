//! `docs/dialect.md`, the dialect reference, in step with the dialect itself:
//! the ops and their operands with `acopy.irdl.mlir` (generated from
//! `acopy.td`), the attributes and their values with the Rust views, the two
//! examples of each op (custom and generic form) with the parser, the printer
//! and the views, and each op's rule list with the verifier's rules table.

use std::path::PathBuf;

use acopy_dialect::{names, AcopyOp, ViewError, IRDL_SOURCE};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Attribute, AttributeLike, Module, OperationRef,
};

use crate::{context::create_context, ir, verify::RULES};

fn dialect_doc() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/dialect.md");
    std::fs::read_to_string(path).expect("docs/dialect.md exists")
}

/// The ops of `acopy.irdl.mlir` in order, each with its operands as
/// (name, `single` / `variadic` / `optional`).
fn irdl_ops() -> Vec<(String, Vec<(String, String)>)> {
    let mut ops: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for line in IRDL_SOURCE.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("irdl.operation @") {
            let name = rest.trim_end_matches('{').trim();
            ops.push((format!("acopy.{name}"), Vec::new()));
        } else if let Some(list) = line
            .strip_prefix("irdl.operands(")
            .and_then(|rest| rest.strip_suffix(')'))
        {
            let (_, operands) = ops.last_mut().expect("operands inside an operation");
            for operand in list.split(',').map(str::trim).filter(|o| !o.is_empty()) {
                let (name, constraint) = operand.split_once(':').expect("name: constraint");
                let constraint = constraint.trim();
                let kind = ["variadic", "optional"]
                    .into_iter()
                    .find(|kind| constraint.starts_with(&format!("{kind} ")))
                    .unwrap_or("single");
                operands.push((name.trim().to_string(), kind.to_string()));
            }
        }
    }
    ops
}

/// One `## \`acopy.…\`` section of the reference.
struct Section {
    op: String,
    /// The custom form's example, which comes first.
    example: String,
    /// The generic form's example, which comes second.
    generic: String,
    /// (operand, kind) rows; `None` without an operand table.
    operands: Option<Vec<(String, String)>>,
    /// (attribute, values) rows, values without their backticks; `None`
    /// without an attribute table.
    attributes: Option<Vec<(String, String)>>,
    text: String,
}

fn cells(row: &str) -> Vec<String> {
    row.trim()
        .trim_matches('|')
        .split(" | ")
        .map(|cell| cell.trim().to_string())
        .collect()
}

/// The rows of the table whose header starts with `| {first} |`.
fn table(text: &str, first: &str) -> Option<Vec<Vec<String>>> {
    let header = format!("| {first} |");
    let mut lines = text.lines().skip_while(|line| !line.starts_with(&header));
    lines.next()?;
    lines.next(); // |---|
    Some(
        lines
            .take_while(|line| line.starts_with('|'))
            .map(cells)
            .collect(),
    )
}

fn unquote(cell: &str) -> String {
    cell.trim_matches('`').to_string()
}

fn sections(doc: &str) -> Vec<Section> {
    doc.split("\n## `")
        .skip(1)
        .filter_map(|chunk| {
            let (op, text) = chunk.split_once("`\n")?;
            // The section ends at the next heading of any kind.
            let text = text.split("\n## ").next().unwrap_or(text);
            let mut examples = text
                .split("```mlir\n")
                .skip(1)
                .filter_map(|rest| rest.split_once("```"))
                .map(|(example, _)| example.to_string());
            Some(Section {
                op: op.to_string(),
                example: examples.next().unwrap_or_default(),
                generic: examples.next().unwrap_or_default(),
                operands: table(text, "operand").map(|rows| {
                    rows.iter()
                        .map(|row| (unquote(&row[0]), row[1].clone()))
                        .collect()
                }),
                attributes: table(text, "attribute").map(|rows| {
                    rows.iter()
                        .map(|row| (unquote(&row[0]), unquote(&row[1])))
                        .collect()
                }),
                text: text.to_string(),
            })
        })
        .collect()
}

#[test]
fn every_op_has_a_section_with_its_irdl_operands() {
    let doc = dialect_doc();
    let sections = sections(&doc);
    // The reference orders the ops for reading; the generated IRDL by name.
    let mut documented: Vec<&str> = sections.iter().map(|s| s.op.as_str()).collect();
    documented.sort_unstable();
    let irdl = irdl_ops();
    let defined: Vec<&str> = irdl.iter().map(|(op, _)| op.as_str()).collect();
    assert_eq!(documented, defined, "docs/dialect.md's op sections");
    let mut all = names::ALL.to_vec();
    all.sort_unstable();
    assert_eq!(
        defined, all,
        "acopy.irdl.mlir and acopy_dialect::names::ALL"
    );
    for (op, operands) in &irdl {
        let section = sections.iter().find(|s| &s.op == op).expect("found above");
        match &section.operands {
            Some(rows) => assert_eq!(rows, operands, "{op}: the operand table"),
            None => assert!(
                operands.is_empty() && section.text.contains("\nNo operands.\n"),
                "{op}: no operand table, and IRDL has {operands:?}"
            ),
        }
    }
}

#[test]
fn each_op_lists_the_rules_that_check_it() {
    for section in sections(&dialect_doc()) {
        let ids: Vec<&str> = RULES
            .iter()
            .filter(|rule| rule.ops.contains(&section.op.as_str()))
            .map(|rule| rule.id)
            .collect();
        let line = if ids.is_empty() {
            "Rules: none.".to_string()
        } else {
            format!("Rules: {}.", ids.join(", "))
        };
        assert!(
            section.text.contains(&format!("\n{line}\n")),
            "{}: docs/dialect.md should say\n{line}",
            section.op
        );
    }
}

/// The acopy op of a parsed example.
fn the_acopy_op<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    let mut raw = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if ir::op_name(&op).starts_with("acopy.") {
            raw.push(op.to_raw());
        }
        WalkResult::Advance
    });
    raw.into_iter()
        // SAFETY: the walk found these ops in `module`, which outlives the refs.
        .map(|raw| unsafe { OperationRef::from_raw(raw) })
        .collect()
}

/// Every example parses, holds its section's op, and the op's view accepts it;
/// every documented attribute is one the view reads, and what it accepts is
/// what the values column says.
#[test]
fn examples_parse_and_attributes_match_the_views() {
    let context = create_context().expect("the acopy dialect loads");
    let bogus = Attribute::parse(&context, "@bogus").expect("a symbol reference");
    for section in sections(&dialect_doc()) {
        let op_name = &section.op;
        let module = Module::parse(&context, &section.example)
            .unwrap_or_else(|| panic!("{op_name}: the example does not parse"));
        let ops = the_acopy_op(&module);
        assert_eq!(ops.len(), 1, "{op_name}: the example holds one acopy op");
        let op = ops[0];
        assert_eq!(&ir::op_name(&op), op_name);
        // The two spellings are the same op: they print the same.
        assert!(
            !section.example.contains(&format!("\"{op_name}\"")),
            "{op_name}: the first example should be the custom form"
        );
        let generic = Module::parse(&context, &section.generic)
            .unwrap_or_else(|| panic!("{op_name}: the generic example does not parse"));
        let generic_ops = the_acopy_op(&generic);
        assert_eq!(generic_ops.len(), 1, "{op_name}: the generic example");
        assert!(
            section.generic.contains(&format!("\"{op_name}\"(")),
            "{op_name}: the second example should be the generic form"
        );
        assert_eq!(
            generic_ops[0].to_string(),
            op.to_string(),
            "{op_name}: the custom and generic examples differ"
        );
        assert!(
            matches!(AcopyOp::from_op(op), Some(Ok(_))),
            "{op_name}: the view refuses the example"
        );
        let attributes = section.attributes.clone().unwrap_or_default();
        if section.attributes.is_none() {
            assert!(
                section.text.contains("\nNo attributes.\n"),
                "{op_name}: neither an attribute table nor \"No attributes.\""
            );
        }
        for (name, values) in attributes {
            let module = Module::parse(&context, &section.example).expect("parsed above");
            let op = the_acopy_op(&module)[0];
            let name_ref = melior::StringRef::new(&name);
            // SAFETY: the op and the attribute are live in `context`.
            unsafe {
                mlir_sys::mlirOperationSetAttributeByName(
                    op.to_raw(),
                    name_ref.to_raw(),
                    bogus.to_raw(),
                )
            };
            match AcopyOp::from_op(op) {
                Some(Err(ViewError::AttributeValue {
                    name: found,
                    allowed,
                    ..
                })) => {
                    assert_eq!(found, name, "{op_name}: the view blamed another attribute");
                    assert_eq!(
                        values, allowed,
                        "{op_name}: `{name}`'s values column should be the view's"
                    );
                }
                _ => panic!(
                    "{op_name}: docs/dialect.md documents `{name}`, but the view ignores a bad value of it"
                ),
            }
        }
    }
}

/// The parsers above find what they look for (a broken parser would make the
/// tests pass vacuously).
#[test]
fn the_reference_parses_into_sections() {
    let sections = sections(&dialect_doc());
    assert_eq!(sections.len(), names::ALL.len());
    let load = &sections[0];
    assert_eq!(load.op, names::COPY_GMEM_TO_SMEM);
    assert_eq!(load.operands.as_ref().map(Vec::len), Some(5));
    assert_eq!(load.attributes.as_ref().map(Vec::len), Some(6));
    assert!(load
        .example
        .contains("acopy.copy_gmem_to_smem %src[%i, %j] -> %dst"));
    assert!(load.generic.contains("\"acopy.copy_gmem_to_smem\"(%src"));
    let irdl = irdl_ops();
    let operands = |op: &str| {
        irdl.iter()
            .find(|(name, _)| name == op)
            .map(|(_, operands)| operands.clone())
            .unwrap_or_else(|| panic!("{op} in the IRDL"))
    };
    let load = operands(names::COPY_GMEM_TO_SMEM);
    assert_eq!(load[2], ("indices".to_string(), "variadic".to_string()));
    assert_eq!(load[3].1, "optional");
    assert!(operands(names::WAIT_GMEM_TO_SMEM).is_empty());
    assert_eq!(operands(names::BARRIER_WAIT).len(), 2);
}
