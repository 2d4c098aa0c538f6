//! A downstream frontend: compiles examples/tile_copy_sm90.mlir through
//! `acopy::compile` and checks what comes back, exiting non-zero otherwise.

use std::process::ExitCode;

const SOURCE: &str = include_str!("../../tile_copy_sm90.mlir");

fn main() -> ExitCode {
    // The frontend's own melior handle is the one acopy uses.
    let context: melior::Context = match acopy::create_context() {
        Ok(context) => context,
        Err(error) => {
            eprintln!("embed-crate: {error}");
            return ExitCode::FAILURE;
        }
    };
    let module = match melior::ir::Module::parse(&context, SOURCE) {
        Some(module) => module,
        None => {
            eprintln!("embed-crate: the example does not parse");
            return ExitCode::FAILURE;
        }
    };
    match acopy::compile(&module, &acopy::Options::default()) {
        Ok(compiled) => {
            let ptx = &compiled.outputs[0].text;
            let maps = compiled.manifest.kernel("tile_copy").map(|k| k.tensor_maps.len());
            println!(
                "embed-crate: {} with {:?} tensor maps",
                ptx.lines().find(|line| line.starts_with(".target")).unwrap_or("no .target"),
                maps
            );
            if ptx.contains(".target sm_90") && maps == Some(2) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(failed) => {
            eprintln!("embed-crate: {failed}");
            ExitCode::FAILURE
        }
    }
}
