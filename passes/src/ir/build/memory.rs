//! Memory: views into byte buffers, loads and stores, shared globals.

use melior::ir::{
    attribute::FlatSymbolRefAttribute, Operation, OperationRef, Type, Value, ValueLike,
};

use super::{Builder, Ix};
use crate::ir::op_names::memref;

impl<'c, 'a> Builder<'c, 'a> {
    /// `memref.view %buffer[%shift][] : ... to result`.
    pub fn view(
        &self,
        buffer: Value<'c, '_>,
        shift: Ix<'c, 'a>,
        result: Type<'c>,
    ) -> Result<Value<'c, 'a>, String> {
        let shift = self.ix(shift)?;
        self.value(memref::VIEW, &[buffer, shift], result, &[])
    }

    /// `memref.assume_alignment %value, align`.
    pub fn assume_aligned(
        &self,
        value: Value<'c, 'a>,
        align: u64,
    ) -> Result<Value<'c, 'a>, String> {
        let align = self.int_attr(32, align as i64);
        self.value(
            memref::ASSUME_ALIGNMENT,
            &[value],
            value.r#type(),
            &[("alignment", align)],
        )
    }

    /// `memref.get_global @symbol : type`.
    pub fn get_global(&self, symbol: &str, r#type: Type<'c>) -> Result<Value<'c, 'a>, String> {
        let name = FlatSymbolRefAttribute::new(self.context, symbol).into();
        self.value(memref::GET_GLOBAL, &[], r#type, &[("name", name)])
    }

    /// `memref.load %memref[%index]`.
    pub fn load(
        &self,
        memref: Value<'c, '_>,
        index: Value<'c, '_>,
        r#type: Type<'c>,
    ) -> Result<Value<'c, 'a>, String> {
        self.value(memref::LOAD, &[memref, index], r#type, &[])
    }

    /// `memref.store %value, %memref[%index]`.
    pub fn store(
        &self,
        value: Value<'c, '_>,
        memref: Value<'c, '_>,
        index: Value<'c, '_>,
    ) -> Result<(), String> {
        self.op(memref::STORE, &[value, memref, index], &[], &[])
            .map(|_| ())
    }

    /// Clones `op` here and returns the clone.
    pub fn clone_op(&self, op: OperationRef<'c, '_>) -> OperationRef<'c, 'a> {
        // SAFETY: cloning a live op gives a new detached op, owned by the block
        // once inserted.
        let clone = unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
        self.insert(clone)
    }
}
