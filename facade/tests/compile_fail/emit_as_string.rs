// What to emit is an enum, not a string that could be misspelled.
fn main() {
    let options = acopy::Options {
        emit: "ptx",
        ..Default::default()
    };
    let _ = acopy::compile("", &options);
}
