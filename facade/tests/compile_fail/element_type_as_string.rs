// A tensor map's element type is an enum of the ten types a tensor map can
// describe: no string, not even a good spelling such as "f32", stands for one.
fn main() {
    let _ = acopy::manifest_format::TensorMap::new(0, "f32", vec![64, 128]);
}
