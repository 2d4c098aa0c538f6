//! The results file and the markdown table.

use crate::bench::{BwRow, BYTES};
use serde::{Deserialize, Serialize};

/// One correctness case in the results.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseResult {
    pub name: String,
    /// "cp_async" or "tma".
    pub path: String,
    /// Size of the output buffer, every element of which is compared.
    pub bytes: u64,
    pub exact: bool,
    /// Elements of the output that differ from the host reference.
    pub wrong: u64,
    /// Why the case could not run (then `exact` is false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `bench/results/gpu-h200.json`.
#[derive(Debug, Clone, Serialize)]
pub struct Results {
    pub date: String,
    pub device: String,
    pub driver: String,
    pub seed: u64,
    pub cases: Vec<CaseResult>,
    pub bandwidth: Vec<BwRow>,
}

impl Results {
    pub fn failures(&self) -> usize {
        self.cases.iter().filter(|c| !c.exact).count()
            + self
                .bandwidth
                .iter()
                .filter(|b| b.error.is_some() || b.exact == Some(false))
                .count()
    }

    pub fn markdown(&self) -> String {
        let mut s = format!(
            "\n## GPU suite: {}, CUDA driver {}, {}\n\nSeed {} (rerun with `--seed {}`). \
             Every output element is compared with a host reference.\n\n",
            self.device, self.driver, self.date, self.seed, self.seed
        );
        s.push_str("| case | path | bytes | exact | wrong elements |\n|---|---|---:|:---:|---:|\n");
        for c in &self.cases {
            let wrong = match &c.error {
                Some(e) => format!("error: {}", one_line(e)),
                None => c.wrong.to_string(),
            };
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                c.name,
                c.path,
                c.bytes,
                if c.exact { "yes" } else { "**no**" },
                wrong
            ));
        }
        let passed = self.cases.iter().filter(|c| c.exact).count();
        s.push_str(&format!(
            "\n{passed} of {} cases exact.\n",
            self.cases.len()
        ));
        if !self.bandwidth.is_empty() {
            s.push_str(&format!(
                "\nBandwidth: a {} MiB f32 array streamed through shared memory; GB/s counts \
                 bytes read plus bytes written; CUDA events, median of the timed runs after \
                 warm-up.\n\n| kernel | tile | GB/s | ratio to device copy | output exact |\n\
                 |---|---|---:|---:|:---:|\n",
                BYTES >> 20
            ));
            for b in &self.bandwidth {
                let (g, r) = match (b.gbps, b.ratio_to_copy) {
                    (Some(g), Some(r)) => (format!("{g:.1}"), format!("{r:.3}")),
                    _ => (
                        "-".into(),
                        format!("error: {}", one_line(b.error.as_deref().unwrap_or("?"))),
                    ),
                };
                let exact = match b.exact {
                    Some(true) => "yes",
                    Some(false) => "**no**",
                    None => "-",
                };
                s.push_str(&format!(
                    "| {} | {} | {g} | {r} | {exact} |\n",
                    b.kernel,
                    b.tile.as_deref().unwrap_or("-")
                ));
            }
        }
        s
    }
}

fn one_line(s: &str) -> String {
    let first = s.lines().next().unwrap_or("").replace('|', "\\|");
    if first.chars().count() > 160 {
        format!("{}...", first.chars().take(160).collect::<String>())
    } else {
        first
    }
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format_utc(secs)
}

/// Seconds since the Unix epoch as an ISO 8601 UTC time.
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86400) as i64;
    let rem = secs % 86400;
    // Civil date from a day count (proleptic Gregorian, eras of 400 years).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(format_utc(4_102_444_800), "2100-01-01T00:00:00Z");
    }

    fn sample() -> Results {
        Results {
            date: "2026-01-01T00:00:00Z".into(),
            device: "NVIDIA H200".into(),
            driver: "13.0".into(),
            seed: 42,
            cases: vec![
                CaseResult {
                    name: "a".into(),
                    path: "tma".into(),
                    bytes: 4,
                    exact: true,
                    wrong: 0,
                    error: None,
                },
                CaseResult {
                    name: "b".into(),
                    path: "cp_async".into(),
                    bytes: 4,
                    exact: false,
                    wrong: 1,
                    error: Some("missing | file\nmore".into()),
                },
            ],
            bandwidth: vec![BwRow {
                kernel: "device_copy".into(),
                tile: None,
                gbps: Some(4244.0),
                ratio_to_copy: Some(1.0),
                exact: None,
                error: None,
            }],
        }
    }

    #[test]
    fn json_shape() {
        let v = serde_json::to_value(sample()).unwrap();
        for k in ["date", "device", "driver", "cases", "bandwidth"] {
            assert!(v.get(k).is_some(), "{k}");
        }
        let c = &v["cases"][0];
        assert_eq!(c["path"], "tma");
        assert_eq!(c["exact"], true);
        assert_eq!(c["wrong"], 0);
        assert!(c.get("error").is_none());
        let b = &v["bandwidth"][0];
        assert_eq!(b["kernel"], "device_copy");
        assert!(b["tile"].is_null());
        assert_eq!(b["ratio_to_copy"], 1.0);
    }

    #[test]
    fn markdown_table() {
        let r = sample();
        let md = r.markdown();
        assert!(md.contains("| a | tma | 4 | yes | 0 |"), "{md}");
        assert!(
            md.contains("| b | cp_async | 4 | **no** | error: missing \\| file |"),
            "{md}"
        );
        assert!(
            md.contains("| device_copy | - | 4244.0 | 1.000 | - |"),
            "{md}"
        );
        assert!(md.contains("1 of 2 cases exact"));
        assert_eq!(r.failures(), 1);
    }
}
