//! Host cost of one launch through acopy-runtime, for `bench/launch_overhead.py`:
//! the median wall time of packing the arguments (`Runtime::bind`) and
//! `LoadedKernel::launch_on`, per launch, on a kernel that does almost nothing.
//!
//! `acopy-launch-overhead PTX KERNEL [LAUNCHES]`: the kernel must take
//! `(memref<1024xf32>, memref<1024xf32>, index)`; prints one JSON line
//! `{"median_us", "mean_us", "launches"}`. The launches go out in batches of 200
//! with a synchronisation between batches (not timed), so the launch queue never
//! fills and what is timed is the host's work.

use acopy_runtime::{Arg, LaunchConfig, LoadedKernel, Runtime};
use std::time::Instant;

const BATCH: usize = 200;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, ptx, kernel, rest @ ..] = args.as_slice() else {
        return Err("usage: acopy-launch-overhead PTX KERNEL [LAUNCHES]".into());
    };
    let launches: usize = rest
        .first()
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(20_000);
    let rt = match Runtime::new() {
        Ok(rt) => rt,
        Err(e) if e.is_no_gpu() => {
            println!("SKIPPED: {e}");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let k = LoadedKernel::load(&rt, &std::fs::read_to_string(ptx)?, ptx, kernel)?;
    let src = rt.alloc(1024 * 4)?;
    let out = rt.alloc(1024 * 4)?;
    let cfg = LaunchConfig::linear(1, 128);
    let mut times = Vec::with_capacity(launches);
    // Warm up: module load, first launch.
    for _ in 0..BATCH {
        let mut a = rt.bind(
            &[src.memref(&[1024]), out.memref(&[1024]), Arg::I64(3)],
            None,
        )?;
        k.launch_on(&cfg, &mut a, std::ptr::null_mut())?;
    }
    rt.synchronize()?;
    while times.len() < launches {
        for _ in 0..BATCH {
            let start = Instant::now();
            let mut a = rt.bind(
                &[src.memref(&[1024]), out.memref(&[1024]), Arg::I64(3)],
                None,
            )?;
            k.launch_on(&cfg, &mut a, std::ptr::null_mut())?;
            times.push(start.elapsed().as_nanos() as f64 / 1000.0);
        }
        rt.synchronize()?;
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "{{\"median_us\": {median:.3}, \"mean_us\": {mean:.3}, \"launches\": {}}}",
        times.len()
    );
    Ok(())
}
