//! Where a location points in the source, as a [`Position`] that holds no
//! MLIR handle, and a location made back from one.

use melior::{ir::Location, Context};

use super::Position;

/// The first file position inside `location`, looking through names, call
/// sites (the callee, as MLIR's own handler does) and fused locations (so a
/// rule's error, emitted at a fused location around the op's, points where
/// the op does).
pub fn position_of(location: Location) -> Option<Position> {
    if location.is_file_line_col_range() {
        let file = location.file_line_col_range_filename();
        let file = file
            .as_string_ref()
            .as_str()
            .unwrap_or("<invalid utf-8>")
            .to_string();
        return Some(Position {
            file,
            line: location.file_line_col_range_start_line() as u32,
            column: location.file_line_col_range_start_column() as u32,
        });
    }
    if location.is_name() {
        return position_of(location.name_child_location());
    }
    if location.is_call_site() {
        return position_of(location.call_site_callee());
    }
    if location.is_fused() {
        return (0..location.fused_num_locations())
            .find_map(|index| position_of(location.fused_location(index)));
    }
    None
}

/// A location in `context` at `position`.
pub fn location_at<'c>(position: &Position, context: &'c Context) -> Location<'c> {
    Location::new(
        context,
        &position.file,
        position.line as usize,
        position.column as usize,
    )
}
