//! Splitting an op's operands by `operandSegmentSizes`.

use melior::ir::{attribute::DenseI32ArrayAttribute, operation::OperationLike, Value};

use crate::ViewError;

/// The operands of an op, grouped by segment.
pub(crate) struct Segments<'c, 'a> {
    groups: Vec<Vec<Value<'c, 'a>>>,
}

impl<'c: 'a, 'a> Segments<'c, 'a> {
    /// Reads `operandSegmentSizes` and checks it has `expected` entries that add up
    /// to the operand count.
    pub(crate) fn read(
        op: &impl OperationLike<'c, 'a>,
        expected: usize,
    ) -> Result<Self, ViewError> {
        let attribute = op
            .attribute("operandSegmentSizes")
            .map_err(|_| ViewError::Segments("attribute is expected but not provided".into()))?;
        let sizes = DenseI32ArrayAttribute::try_from(attribute).map_err(|_| {
            ViewError::Segments(format!("must be an array<i32: ...>, got {attribute}"))
        })?;
        if sizes.len() != expected {
            return Err(ViewError::Segments(format!(
                "must have {expected} entries, got {}",
                sizes.len()
            )));
        }
        let mut operands = op.operands();
        let mut groups = Vec::with_capacity(expected);
        for index in 0..expected {
            let size = sizes
                .element(index)
                .map_err(|_| ViewError::Segments("could not be read".into()))?;
            let size = usize::try_from(size)
                .map_err(|_| ViewError::Segments(format!("entry {index} is negative")))?;
            let group: Vec<_> = operands.by_ref().take(size).collect();
            if group.len() != size {
                return Err(ViewError::Segments(
                    "adds up to more than the operand count".into(),
                ));
            }
            groups.push(group);
        }
        if operands.next().is_some() {
            return Err(ViewError::Segments(
                "adds up to less than the operand count".into(),
            ));
        }
        Ok(Self { groups })
    }

    /// A segment that must hold exactly one operand.
    pub(crate) fn one(&self, index: usize, name: &str) -> Result<Value<'c, 'a>, ViewError> {
        match self.groups[index].as_slice() {
            [value] => Ok(*value),
            other => Err(ViewError::Segments(format!(
                "segment '{name}' must hold exactly 1 operand, got {}",
                other.len()
            ))),
        }
    }

    /// A segment that holds zero or one operand.
    pub(crate) fn optional(
        &self,
        index: usize,
        name: &str,
    ) -> Result<Option<Value<'c, 'a>>, ViewError> {
        match self.groups[index].as_slice() {
            [] => Ok(None),
            [value] => Ok(Some(*value)),
            other => Err(ViewError::Segments(format!(
                "segment '{name}' must hold at most 1 operand, got {}",
                other.len()
            ))),
        }
    }

    /// A variadic segment.
    pub(crate) fn all(&self, index: usize) -> Vec<Value<'c, 'a>> {
        self.groups[index].clone()
    }
}
