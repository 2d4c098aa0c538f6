//! The acopy tensor-map manifest.
//!
//! The compiler lowers every TMA copy to a `cp.async.bulk.tensor` instruction that reads
//! a `CUtensorMap`. Such a map can only be built on the host (`cuTensorMapEncodeTiled`), so
//! each kernel gets trailing `__grid_constant__ CUtensorMap` parameters, and the compiler
//! writes this manifest to tell host code, for every one of those parameters, which
//! kernel argument it describes and how to encode it.
//!
//! Since version 2 it also lists every kernel the compiler lowered with what a launch
//! needs to know ([`LaunchFacts`]): its arguments, known block size, static and dynamic
//! shared memory, cluster and chip.
//!
//! See `README.md` of this crate for the JSON format.

mod launch;

pub use launch::{KernelArg, LaunchFacts, MemrefArgType, ScalarArgType};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The manifest format version this crate writes.
pub const MANIFEST_VERSION: u32 = 2;

/// The versions this crate reads: 1 (tensor maps, no launch facts) and 2.
pub const READ_VERSIONS: [u32; 2] = [1, 2];

/// The largest tensor rank TMA supports.
pub const MAX_RANK: usize = 5;

/// Errors from reading or checking a manifest.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// Not valid JSON, or JSON that does not match the schema (missing field, unknown
    /// element type, swizzle that is not 0/32/64/128, ...).
    #[error("invalid tensor-map manifest: {0}")]
    Json(#[from] serde_json::Error),
    #[error("unsupported tensor-map manifest version {found}; this build reads versions 1 and 2")]
    UnsupportedVersion { found: u32 },
    /// A version 2 entry without its launch facts, or with malformed ones.
    #[error("kernel `{kernel}`: launch facts (static_shared_memory, block, args): {reason}")]
    LaunchFacts { kernel: String, reason: String },
    #[error("kernel `{kernel}`, tensor map for param {param}: element_bytes is {found} but {element_type} has {expected} bytes")]
    ElementBytes {
        kernel: String,
        param: u32,
        element_type: ElementType,
        expected: u32,
        found: u32,
    },
    #[error("kernel `{kernel}`, tensor map for param {param}: box rank {rank} is outside 1..={MAX_RANK}")]
    BoxRank {
        kernel: String,
        param: u32,
        rank: usize,
    },
    #[error("kernel `{kernel}`, tensor map for param {param}: box dimension {dim} is 0")]
    BoxZero {
        kernel: String,
        param: u32,
        dim: usize,
    },
    #[error("kernel `{kernel}`, tensor map for param {param}: it describes itself (arg == param)")]
    SelfReference { kernel: String, param: u32 },
    #[error("kernel `{kernel}`: param {param} has two tensor maps")]
    DuplicateParam { kernel: String, param: u32 },
    #[error("kernel `{kernel}`: cluster dimension {dim} is 0")]
    ClusterZero { kernel: String, dim: usize },
    #[error("kernel `{kernel}`: block dimension {dim} is 0")]
    BlockZero { kernel: String, dim: usize },
}

/// The whole manifest: in version 2 one entry per lowered kernel (per chip, for a
/// `gpu.module` with targets of several chips); in version 1 the kernels that need
/// tensor maps or dynamic shared memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub kernels: Vec<KernelEntry>,
}

/// One kernel (`gpu.func`) and the tensor maps it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelEntry {
    /// Symbol of the enclosing `gpu.module`.
    pub module: String,
    /// Symbol of the `gpu.func`; the PTX `.entry` has this name.
    pub kernel: String,
    /// The chip it was lowered for, e.g. `sm_90a`.
    pub chip: String,
    /// Cluster shape (`nvvm.cluster_dim`), `[1, 1, 1]` when the kernel has none.
    pub cluster: [u32; 3],
    /// The trailing tensor-map parameters, in parameter order.
    pub tensor_maps: Vec<TensorMapEntry>,
    /// Dynamic shared memory in bytes the kernel needs at every launch: the
    /// slots of a pipelined loop moved there, or the furthest byte the
    /// kernel's own `memref.view`s of `gpu.dynamic_shared_memory` reach.
    /// Version 2 writes it for every kernel whose size the compiler can bound
    /// (0 without dynamic shared memory) and leaves it out for one it cannot;
    /// version 1 wrote it only for pipelined slots. Left out when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_shared_memory: Option<u32>,
    /// The kernel waits for the grids before it (`nvvm.griddepcontrol wait`,
    /// programmatic dependent launch): a launcher may launch it with
    /// programmatic stream serialization, so that its start overlaps the
    /// previous kernel's end. Left out when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub programmatic_launch: bool,
    /// Arguments, block size and static shared memory (version 2; `None` for
    /// an entry read from a version 1 file).
    #[serde(flatten)]
    pub launch: Option<LaunchFacts>,
}

/// One trailing `CUtensorMap` parameter: its index and the map it takes.
///
/// This is the one entry type of the compiler's lowering (which records it on
/// the kernel), this crate's JSON and the runtime (which encodes it). In JSON
/// the map's fields sit next to `param`, as `README.md` shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorMapEntry {
    /// gpu.func argument index of this tensor-map parameter.
    pub param: u32,
    #[serde(flatten)]
    pub map: TensorMap,
}

/// A tensor map, everything about it but the parameter that takes it. Copies
/// in one kernel with equal `TensorMap`s share one parameter: the lowering
/// keys parameters by this value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TensorMap {
    /// gpu.func argument index of the global memref it describes.
    pub arg: u32,
    pub element_type: ElementType,
    /// Must be `element_type.bytes()` ([`KernelEntry::validate`] checks);
    /// kept because the JSON format has it.
    pub element_bytes: u32,
    /// Box shape in elements, outermost first, exactly what must be encoded.
    #[serde(rename = "box")]
    pub box_shape: Vec<u32>,
    pub swizzle: Swizzle,
    pub oob_fill: OobFill,
    #[serde(default)]
    pub l2_promotion: L2Promotion,
    #[serde(default)]
    pub interleave: Interleave,
}

/// Element types, in their MLIR spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElementType {
    #[serde(rename = "f16")]
    F16,
    #[serde(rename = "bf16")]
    BF16,
    #[serde(rename = "f32")]
    F32,
    #[serde(rename = "f64")]
    F64,
    #[serde(rename = "i8")]
    I8,
    #[serde(rename = "i16")]
    I16,
    #[serde(rename = "i32")]
    I32,
    #[serde(rename = "i64")]
    I64,
    #[serde(rename = "f8E4M3FN")]
    F8E4M3FN,
    #[serde(rename = "f8E5M2")]
    F8E5M2,
}

impl ElementType {
    /// Every element type a tensor map can describe, in the order the docs list them.
    pub const ALL: [ElementType; 10] = [
        ElementType::F16,
        ElementType::BF16,
        ElementType::F32,
        ElementType::F64,
        ElementType::I8,
        ElementType::I16,
        ElementType::I32,
        ElementType::I64,
        ElementType::F8E4M3FN,
        ElementType::F8E5M2,
    ];

    /// Size of one element in bytes.
    pub fn bytes(self) -> u32 {
        match self {
            ElementType::I8 | ElementType::F8E4M3FN | ElementType::F8E5M2 => 1,
            ElementType::F16 | ElementType::BF16 | ElementType::I16 => 2,
            ElementType::F32 | ElementType::I32 => 4,
            ElementType::F64 | ElementType::I64 => 8,
        }
    }

    /// Whether this is a floating-point type (OOB NaN fill is only allowed for these).
    pub fn is_float(self) -> bool {
        !matches!(
            self,
            ElementType::I8 | ElementType::I16 | ElementType::I32 | ElementType::I64
        )
    }

    /// The MLIR spelling, e.g. `bf16`.
    pub fn mlir_name(self) -> &'static str {
        match self {
            ElementType::F16 => "f16",
            ElementType::BF16 => "bf16",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
            ElementType::I8 => "i8",
            ElementType::I16 => "i16",
            ElementType::I32 => "i32",
            ElementType::I64 => "i64",
            ElementType::F8E4M3FN => "f8E4M3FN",
            ElementType::F8E5M2 => "f8E5M2",
        }
    }

    /// Parse an MLIR spelling; `None` for a type no tensor map can describe
    /// (`si32`, `f8E4M3FNUZ`, `f128`, ...).
    pub fn from_mlir_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.mlir_name() == name)
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mlir_name())
    }
}

/// Shared-memory swizzle, written in JSON as the span in bytes: 0, 32, 64 or 128.
///
/// The dialect's `swizzle` attribute (`acopy_dialect::Swizzle`) is this type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub enum Swizzle {
    #[default]
    None,
    B32,
    B64,
    B128,
}

impl Swizzle {
    /// The swizzle span in bytes (0 for none).
    pub fn bytes(self) -> u32 {
        match self {
            Swizzle::None => 0,
            Swizzle::B32 => 32,
            Swizzle::B64 => 64,
            Swizzle::B128 => 128,
        }
    }

    /// The swizzle for a byte span, if it is one of the four allowed values.
    /// (An `i64`, the type of the dialect's attribute.)
    pub fn from_bytes(bytes: i64) -> Option<Self> {
        Some(match bytes {
            0 => Swizzle::None,
            32 => Swizzle::B32,
            64 => Swizzle::B64,
            128 => Swizzle::B128,
            _ => return None,
        })
    }
}

impl TryFrom<i64> for Swizzle {
    type Error = String;
    fn try_from(v: i64) -> Result<Self, String> {
        Swizzle::from_bytes(v).ok_or_else(|| format!("swizzle must be 0, 32, 64 or 128, got {v}"))
    }
}

impl TryFrom<u32> for Swizzle {
    type Error = String;
    fn try_from(v: u32) -> Result<Self, String> {
        Swizzle::try_from(i64::from(v))
    }
}

impl From<Swizzle> for u32 {
    fn from(s: Swizzle) -> u32 {
        s.bytes()
    }
}

/// What the hardware writes for box elements outside the tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OobFill {
    /// Zeros (`CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE`).
    #[default]
    None,
    /// `CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA`; float types only.
    NanRequestZeroFma,
}

impl OobFill {
    /// The spelling in JSON and in the compiler's `acopy.tensor_maps` attribute.
    pub fn name(self) -> &'static str {
        match self {
            OobFill::None => "none",
            OobFill::NanRequestZeroFma => "nan_request_zero_fma",
        }
    }

    /// Parse [`OobFill::name`]'s spelling.
    pub fn from_name(name: &str) -> Option<Self> {
        [OobFill::None, OobFill::NanRequestZeroFma]
            .into_iter()
            .find(|fill| fill.name() == name)
    }
}

/// L2 promotion (`CU_TENSOR_MAP_L2_PROMOTION_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum L2Promotion {
    #[default]
    None,
    #[serde(rename = "l2_64b")]
    L2_64B,
    #[serde(rename = "l2_128b")]
    L2_128B,
    #[serde(rename = "l2_256b")]
    L2_256B,
}

/// Interleave layout; acopy only emits `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interleave {
    #[default]
    None,
}

impl Default for Manifest {
    fn default() -> Self {
        Self::new()
    }
}

impl Manifest {
    /// An empty manifest of the current version.
    pub fn new() -> Self {
        Manifest {
            version: MANIFEST_VERSION,
            kernels: Vec::new(),
        }
    }

    /// Pretty-printed JSON, with a trailing newline.
    pub fn to_json_pretty(&self) -> String {
        // Serializing these plain types cannot fail.
        let mut s = serde_json::to_string_pretty(self).expect("manifest serializes");
        s.push('\n');
        s
    }

    /// Parse and check a manifest of any version this crate reads
    /// ([`READ_VERSIONS`]); it keeps its version (a version 1 file's entries
    /// have no [`LaunchFacts`]).
    pub fn from_json(text: &str) -> Result<Manifest, ManifestError> {
        let value: serde_json::Value = serde_json::from_str(text)?;
        let mut m: Manifest = serde_json::from_value(value.clone())?;
        if !READ_VERSIONS.contains(&m.version) {
            return Err(ManifestError::UnsupportedVersion { found: m.version });
        }
        if m.version == 1 {
            // Version 1 had no such fields; whatever a file holds there is not ours.
            for k in &mut m.kernels {
                k.launch = None;
            }
        } else {
            // A flattened `Option` reads as `None` when its fields do not parse;
            // reading them again gives the reason.
            let entries = value["kernels"].as_array().into_iter().flatten();
            for (k, entry) in m.kernels.iter().zip(entries) {
                if let Err(error) = LaunchFacts::deserialize(entry) {
                    return Err(ManifestError::LaunchFacts {
                        kernel: k.kernel.clone(),
                        reason: error.to_string(),
                    });
                }
            }
        }
        m.validate()?;
        Ok(m)
    }

    /// Check the rules that the JSON schema alone does not express.
    pub fn validate(&self) -> Result<(), ManifestError> {
        if !READ_VERSIONS.contains(&self.version) {
            return Err(ManifestError::UnsupportedVersion {
                found: self.version,
            });
        }
        for k in &self.kernels {
            if self.version >= 2 && k.launch.is_none() {
                return Err(ManifestError::LaunchFacts {
                    kernel: k.kernel.clone(),
                    reason: "missing from a version 2 entry".to_string(),
                });
            }
            k.validate()?;
        }
        Ok(())
    }

    /// The first kernel entry with this `gpu.func` name.
    pub fn kernel(&self, name: &str) -> Option<&KernelEntry> {
        self.kernels.iter().find(|k| k.kernel == name)
    }

    /// The kernel entry with this `gpu.module` and `gpu.func` name.
    pub fn kernel_in(&self, module: &str, name: &str) -> Option<&KernelEntry> {
        self.kernels
            .iter()
            .find(|k| k.module == module && k.kernel == name)
    }
}

impl KernelEntry {
    /// Check this entry (see [`Manifest::validate`]).
    pub fn validate(&self) -> Result<(), ManifestError> {
        let kernel = || self.kernel.clone();
        if let Some(dim) = self.cluster.iter().position(|&c| c == 0) {
            return Err(ManifestError::ClusterZero {
                kernel: kernel(),
                dim,
            });
        }
        let block = self.launch.as_ref().and_then(|facts| facts.block);
        if let Some(dim) = block.and_then(|block| block.iter().position(|&b| b == 0)) {
            return Err(ManifestError::BlockZero {
                kernel: kernel(),
                dim,
            });
        }
        let mut seen = Vec::new();
        for entry in &self.tensor_maps {
            let t = &entry.map;
            if seen.contains(&entry.param) {
                return Err(ManifestError::DuplicateParam {
                    kernel: kernel(),
                    param: entry.param,
                });
            }
            seen.push(entry.param);
            if entry.param == t.arg {
                return Err(ManifestError::SelfReference {
                    kernel: kernel(),
                    param: entry.param,
                });
            }
            let expected = t.element_type.bytes();
            if t.element_bytes != expected {
                return Err(ManifestError::ElementBytes {
                    kernel: kernel(),
                    param: entry.param,
                    element_type: t.element_type,
                    expected,
                    found: t.element_bytes,
                });
            }
            if t.box_shape.is_empty() || t.box_shape.len() > MAX_RANK {
                return Err(ManifestError::BoxRank {
                    kernel: kernel(),
                    param: entry.param,
                    rank: t.box_shape.len(),
                });
            }
            if let Some(dim) = t.box_shape.iter().position(|&b| b == 0) {
                return Err(ManifestError::BoxZero {
                    kernel: kernel(),
                    param: entry.param,
                    dim,
                });
            }
        }
        Ok(())
    }

    /// Whether the kernel must be launched with a cluster other than 1x1x1.
    pub fn has_cluster(&self) -> bool {
        self.cluster != [1, 1, 1]
    }
}

impl TensorMapEntry {
    /// A plain entry: no swizzle, zero fill, no L2 promotion, no interleave.
    pub fn new(param: u32, arg: u32, element_type: ElementType, box_shape: Vec<u32>) -> Self {
        TensorMapEntry {
            param,
            map: TensorMap::new(arg, element_type, box_shape),
        }
    }
}

impl TensorMap {
    /// A plain map: no swizzle, zero fill, no L2 promotion, no interleave.
    pub fn new(arg: u32, element_type: ElementType, box_shape: Vec<u32>) -> Self {
        TensorMap {
            arg,
            element_type,
            element_bytes: element_type.bytes(),
            box_shape,
            swizzle: Swizzle::None,
            oob_fill: OobFill::None,
            l2_promotion: L2Promotion::None,
            interleave: Interleave::None,
        }
    }

    /// Bytes of one box (what one copy moves and what the barrier expects).
    pub fn box_bytes(&self) -> u64 {
        self.box_shape.iter().map(|&b| b as u64).product::<u64>() * self.element_bytes as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        let mut swz = TensorMapEntry::new(3, 1, ElementType::BF16, vec![64, 64]);
        swz.map.swizzle = Swizzle::B128;
        swz.map.oob_fill = OobFill::NanRequestZeroFma;
        swz.map.l2_promotion = L2Promotion::L2_128B;
        Manifest {
            version: 1,
            kernels: vec![KernelEntry {
                module: "m".into(),
                kernel: "k".into(),
                chip: "sm_90a".into(),
                cluster: [2, 1, 1],
                dynamic_shared_memory: None,
                programmatic_launch: false,
                launch: None,
                tensor_maps: vec![
                    TensorMapEntry::new(2, 0, ElementType::F32, vec![64, 128]),
                    swz,
                ],
            }],
        }
    }

    #[test]
    fn programmatic_launch_is_written_only_when_true() {
        let mut m = sample();
        assert!(!m.to_json_pretty().contains("programmatic_launch"));
        m.kernels[0].programmatic_launch = true;
        let text = m.to_json_pretty();
        assert!(text.contains("\"programmatic_launch\": true"));
        assert_eq!(Manifest::from_json(&text).unwrap(), m);
    }

    #[test]
    fn round_trip() {
        let m = sample();
        let text = m.to_json_pretty();
        let back = Manifest::from_json(&text).unwrap();
        assert_eq!(m, back);
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn dynamic_shared_memory_round_trips_and_is_optional() {
        let mut m = sample();
        m.kernels[0].dynamic_shared_memory = Some(98416);
        let text = m.to_json_pretty();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["kernels"][0]["dynamic_shared_memory"], 98416);
        assert_eq!(Manifest::from_json(&text).unwrap(), m);
        // Absent: not written, and a file without it reads as None.
        let plain = sample().to_json_pretty();
        assert!(!plain.contains("dynamic_shared_memory"), "{plain}");
        assert_eq!(
            Manifest::from_json(&plain).unwrap().kernels[0].dynamic_shared_memory,
            None
        );
    }

    #[test]
    fn json_spelling_matches_schema() {
        let v: serde_json::Value = serde_json::from_str(&sample().to_json_pretty()).unwrap();
        let t = &v["kernels"][0]["tensor_maps"][1];
        assert_eq!(t["param"], 3);
        assert_eq!(t["arg"], 1);
        assert_eq!(t["element_type"], "bf16");
        assert_eq!(t["element_bytes"], 2);
        assert_eq!(t["box"], serde_json::json!([64, 64]));
        assert_eq!(t["swizzle"], 128);
        assert_eq!(t["oob_fill"], "nan_request_zero_fma");
        assert_eq!(t["l2_promotion"], "l2_128b");
        assert_eq!(t["interleave"], "none");
        assert_eq!(v["kernels"][0]["cluster"], serde_json::json!([2, 1, 1]));
        assert_eq!(v["version"], 1);
    }

    /// The exact text, so that moving fields between types (the entry's map
    /// is flattened into it) cannot reorder or rename anything.
    #[test]
    fn json_text_is_pinned() {
        let expected = r#"{
  "version": 1,
  "kernels": [
    {
      "module": "m",
      "kernel": "k",
      "chip": "sm_90a",
      "cluster": [
        2,
        1,
        1
      ],
      "tensor_maps": [
        {
          "param": 2,
          "arg": 0,
          "element_type": "f32",
          "element_bytes": 4,
          "box": [
            64,
            128
          ],
          "swizzle": 0,
          "oob_fill": "none",
          "l2_promotion": "none",
          "interleave": "none"
        },
        {
          "param": 3,
          "arg": 1,
          "element_type": "bf16",
          "element_bytes": 2,
          "box": [
            64,
            64
          ],
          "swizzle": 128,
          "oob_fill": "nan_request_zero_fma",
          "l2_promotion": "l2_128b",
          "interleave": "none"
        }
      ]
    }
  ]
}
"#;
        assert_eq!(sample().to_json_pretty(), expected);
    }

    #[test]
    fn reads_the_documented_example() {
        let text = r#"{"version":1,"kernels":[{"module":"m","kernel":"k","chip":"sm_90",
            "cluster":[1,1,1],"tensor_maps":[{"param":2,"arg":0,"element_type":"f32",
            "element_bytes":4,"box":[64,128],"swizzle":0,"oob_fill":"none",
            "l2_promotion":"none","interleave":"none"}]}]}"#;
        let m = Manifest::from_json(text).unwrap();
        let k = m.kernel("k").unwrap();
        assert!(!k.has_cluster());
        assert_eq!(k.tensor_maps[0].map.box_shape, vec![64, 128]);
        assert_eq!(k.tensor_maps[0].map.box_bytes(), 64 * 128 * 4);
        assert!(m.kernel_in("m", "k").is_some());
        assert!(m.kernel_in("other", "k").is_none());
    }

    #[test]
    fn optional_fields_default_and_unknown_fields_are_ignored() {
        let text = r#"{"version":1,"kernels":[{"module":"m","kernel":"k","chip":"sm_90",
            "cluster":[1,1,1],"future":true,"tensor_maps":[{"param":2,"arg":0,
            "element_type":"i8","element_bytes":1,"box":[16],"swizzle":32,"oob_fill":"none"}]}]}"#;
        let m = Manifest::from_json(text).unwrap();
        let t = &m.kernels[0].tensor_maps[0].map;
        assert_eq!(t.l2_promotion, L2Promotion::None);
        assert_eq!(t.interleave, Interleave::None);
        assert_eq!(t.swizzle, Swizzle::B32);
    }

    #[test]
    fn rejects_bad_json() {
        assert!(matches!(
            Manifest::from_json("{\"version\":1,"),
            Err(ManifestError::Json(_))
        ));
        assert!(matches!(
            Manifest::from_json("[]"),
            Err(ManifestError::Json(_))
        ));
        // A required field is missing.
        let missing_box = r#"{"version":1,"kernels":[{"module":"m","kernel":"k","chip":"sm_90",
            "cluster":[1,1,1],"tensor_maps":[{"param":2,"arg":0,"element_type":"f32",
            "element_bytes":4,"swizzle":0,"oob_fill":"none"}]}]}"#;
        let e = Manifest::from_json(missing_box).unwrap_err().to_string();
        assert!(e.contains("box"), "{e}");
    }

    fn with_map(map: &str) -> String {
        format!(
            r#"{{"version":1,"kernels":[{{"module":"m","kernel":"k","chip":"sm_90",
            "cluster":[1,1,1],"tensor_maps":[{map}]}}]}}"#
        )
    }

    #[test]
    fn rejects_unknown_element_type() {
        let text = with_map(
            r#"{"param":2,"arg":0,"element_type":"f128","element_bytes":16,"box":[8],
            "swizzle":0,"oob_fill":"none"}"#,
        );
        let e = Manifest::from_json(&text).unwrap_err();
        assert!(matches!(e, ManifestError::Json(_)));
        assert!(e.to_string().contains("f128"), "{e}");
    }

    #[test]
    fn rejects_bad_enum_values() {
        let swz = with_map(
            r#"{"param":2,"arg":0,"element_type":"f32","element_bytes":4,"box":[8],
            "swizzle":16,"oob_fill":"none"}"#,
        );
        let e = Manifest::from_json(&swz).unwrap_err().to_string();
        assert!(e.contains("swizzle must be 0, 32, 64 or 128"), "{e}");
        let oob = with_map(
            r#"{"param":2,"arg":0,"element_type":"f32","element_bytes":4,"box":[8],
            "swizzle":0,"oob_fill":"zeros"}"#,
        );
        assert!(Manifest::from_json(&oob).is_err());
        let l2 = with_map(
            r#"{"param":2,"arg":0,"element_type":"f32","element_bytes":4,"box":[8],
            "swizzle":0,"oob_fill":"none","l2_promotion":"l2_512b"}"#,
        );
        assert!(Manifest::from_json(&l2).is_err());
        let il = with_map(
            r#"{"param":2,"arg":0,"element_type":"f32","element_bytes":4,"box":[8],
            "swizzle":0,"oob_fill":"none","interleave":"16b"}"#,
        );
        assert!(Manifest::from_json(&il).is_err());
    }

    #[test]
    fn rejects_wrong_version() {
        for found in [0, 3] {
            let text = format!(r#"{{"version":{found},"kernels":[]}}"#);
            let e = Manifest::from_json(&text).unwrap_err();
            assert!(
                matches!(e, ManifestError::UnsupportedVersion { found: f } if f == found),
                "{e}"
            );
        }
        let mut m = Manifest::new();
        m.version = 3;
        assert!(matches!(
            m.validate(),
            Err(ManifestError::UnsupportedVersion { found: 3 })
        ));
    }

    #[test]
    fn rejects_element_bytes_mismatch() {
        let text = with_map(
            r#"{"param":2,"arg":0,"element_type":"f16","element_bytes":4,"box":[8],
            "swizzle":0,"oob_fill":"none"}"#,
        );
        let e = Manifest::from_json(&text).unwrap_err();
        assert!(matches!(
            e,
            ManifestError::ElementBytes {
                expected: 2,
                found: 4,
                ..
            }
        ));
    }

    #[test]
    fn rejects_bad_box_and_params() {
        let mut m = sample();
        m.kernels[0].tensor_maps[0].map.box_shape = vec![];
        assert!(matches!(
            m.validate(),
            Err(ManifestError::BoxRank { rank: 0, .. })
        ));
        m.kernels[0].tensor_maps[0].map.box_shape = vec![1; 6];
        assert!(matches!(
            m.validate(),
            Err(ManifestError::BoxRank { rank: 6, .. })
        ));
        m.kernels[0].tensor_maps[0].map.box_shape = vec![4, 0];
        assert!(matches!(
            m.validate(),
            Err(ManifestError::BoxZero { dim: 1, .. })
        ));

        let mut m = sample();
        m.kernels[0].tensor_maps[0].map.arg = 2;
        assert!(matches!(
            m.validate(),
            Err(ManifestError::SelfReference { param: 2, .. })
        ));

        let mut m = sample();
        m.kernels[0].tensor_maps[1].param = 2;
        assert!(matches!(
            m.validate(),
            Err(ManifestError::DuplicateParam { param: 2, .. })
        ));

        let mut m = sample();
        m.kernels[0].cluster = [2, 0, 1];
        assert!(matches!(
            m.validate(),
            Err(ManifestError::ClusterZero { dim: 1, .. })
        ));
    }

    /// A version 2 entry: sample()'s kernel with its launch facts.
    fn sample_v2() -> Manifest {
        let mut m = sample();
        m.version = 2;
        m.kernels[0].dynamic_shared_memory = Some(0);
        m.kernels[0].launch = Some(LaunchFacts {
            static_shared_memory: 8200,
            block: Some([128, 1, 1]),
            args: vec![
                KernelArg::Memref(MemrefArgType {
                    mlir_type: "memref<256x512xf32>".into(),
                    element: "f32".into(),
                    element_bits: Some(32),
                    shape: vec![Some(256), None],
                    strides: vec![None, Some(1)],
                    offset: Some(0),
                    contiguous: true,
                    memory_space: None,
                    global: true,
                }),
                KernelArg::Scalar(ScalarArgType {
                    mlir_type: "index".into(),
                }),
            ],
        });
        m
    }

    #[test]
    fn version_2_round_trips_with_its_launch_facts() {
        let m = sample_v2();
        assert_eq!(Manifest::new().version, 2);
        let text = m.to_json_pretty();
        assert_eq!(Manifest::from_json(&text).unwrap(), m);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let k = &v["kernels"][0];
        assert_eq!(v["version"], 2);
        assert_eq!(k["dynamic_shared_memory"], 0);
        assert_eq!(k["static_shared_memory"], 8200);
        assert_eq!(k["block"], serde_json::json!([128, 1, 1]));
        assert_eq!(k["args"][0]["kind"], "memref");
        assert_eq!(k["args"][0]["type"], "memref<256x512xf32>");
        assert_eq!(k["args"][0]["shape"], serde_json::json!([256, null]));
        assert_eq!(k["args"][0]["memory_space"], serde_json::Value::Null);
        assert_eq!(
            k["args"][1],
            serde_json::json!({"kind": "scalar", "type": "index"})
        );
        // The facts follow the v1 fields, so a v1 reader's view of the text is unchanged.
        let at = |key: &str| text.find(&format!("\"{key}\":")).unwrap();
        let mut order = vec![
            "module",
            "kernel",
            "chip",
            "cluster",
            "tensor_maps",
            "dynamic_shared_memory",
            "static_shared_memory",
            "block",
            "args",
        ];
        order.sort_by_key(|key| at(key));
        assert_eq!(
            order,
            [
                "module",
                "kernel",
                "chip",
                "cluster",
                "tensor_maps",
                "dynamic_shared_memory",
                "static_shared_memory",
                "block",
                "args"
            ]
        );
        // No known block is written as null, and reads back as None.
        let mut any = sample_v2();
        any.kernels[0].launch.as_mut().unwrap().block = None;
        let text = any.to_json_pretty();
        assert!(text.contains("\"block\": null"), "{text}");
        assert_eq!(Manifest::from_json(&text).unwrap(), any);
    }

    /// A file today's compiler wrote before version 2 (tests/lower/tma-manifest.mlir's
    /// kernels and a pipelined cp.async kernel) still reads, without launch facts.
    #[test]
    fn reads_a_version_1_file() {
        let m = Manifest::from_json(include_str!("../testdata/v1.manifest.json")).unwrap();
        assert_eq!(m.version, 1);
        let names: Vec<&str> = m.kernels.iter().map(|k| k.kernel.as_str()).collect();
        assert_eq!(names, ["copy", "store", "pipe_bw_reduce"]);
        assert!(m.kernels.iter().all(|k| k.launch.is_none()));
        let copy = m.kernel_in("first", "copy").unwrap();
        assert_eq!((copy.chip.as_str(), copy.cluster), ("sm_90a", [2, 1, 1]));
        assert_eq!(copy.tensor_maps[0].map.swizzle, Swizzle::B128);
        assert_eq!(copy.dynamic_shared_memory, None);
        let reduce = m.kernel("pipe_bw_reduce").unwrap();
        assert_eq!(reduce.dynamic_shared_memory, Some(98304));
        assert!(reduce.tensor_maps.is_empty());
        // Written back, it is the same version 1 text.
        assert_eq!(Manifest::from_json(&m.to_json_pretty()).unwrap(), m);
        assert!(m.to_json_pretty().contains("\"version\": 1"));
    }

    #[test]
    fn version_1_ignores_launch_fact_fields() {
        let text = with_map(
            r#"{"param":2,"arg":0,"element_type":"f32","element_bytes":4,"box":[8],
            "swizzle":0,"oob_fill":"none"}"#,
        )
        .replace(
            r#""cluster":[1,1,1],"#,
            r#""cluster":[1,1,1],"static_shared_memory":4,"block":null,"args":[],"#,
        );
        assert!(text.contains("static_shared_memory"), "{text}");
        let m = Manifest::from_json(&text).unwrap();
        assert_eq!(m.kernels[0].launch, None);
    }

    #[test]
    fn version_2_requires_its_launch_facts() {
        let v2 = |extra: &str| {
            format!(
                r#"{{"version":2,"kernels":[{{"module":"m","kernel":"k","chip":"sm_80",
                "cluster":[1,1,1],"tensor_maps":[]{extra}}}]}}"#
            )
        };
        let ok =
            v2(r#","static_shared_memory":0,"block":null,"args":[{"kind":"scalar","type":"i32"}]"#);
        let m = Manifest::from_json(&ok).unwrap();
        assert_eq!(
            m.kernels[0].launch.as_ref().unwrap().args[0].mlir_type(),
            "i32"
        );
        for (extra, says) in [
            ("", "static_shared_memory"),
            (r#","static_shared_memory":0,"block":null"#, "args"),
            (r#","static_shared_memory":0,"args":[]"#, "block"),
            (
                r#","static_shared_memory":0,"block":null,"args":[{"kind":"tensor","type":"i32"}]"#,
                "tensor",
            ),
            (r#","static_shared_memory":-1,"block":null,"args":[]"#, "-1"),
        ] {
            let e = Manifest::from_json(&v2(extra)).unwrap_err();
            assert!(
                matches!(e, ManifestError::LaunchFacts { .. }),
                "{extra}: {e}"
            );
            assert!(e.to_string().contains(says), "{extra}: {e}");
        }
        let mut m = sample_v2();
        m.kernels[0].launch = None;
        assert!(matches!(
            m.validate(),
            Err(ManifestError::LaunchFacts { .. })
        ));
    }

    #[test]
    fn rejects_a_zero_block_dimension() {
        let mut m = sample_v2();
        m.kernels[0].launch.as_mut().unwrap().block = Some([128, 0, 1]);
        assert!(matches!(
            m.validate(),
            Err(ManifestError::BlockZero { dim: 1, .. })
        ));
        let text = m.to_json_pretty();
        assert!(matches!(
            Manifest::from_json(&text),
            Err(ManifestError::BlockZero { dim: 1, .. })
        ));
    }

    /// The README's version 2 example is a manifest this crate reads.
    #[test]
    fn reads_the_readme_example() {
        let readme = include_str!("../README.md");
        let start = readme.find("```json\n").unwrap() + "```json\n".len();
        let end = start + readme[start..].find("```").unwrap();
        let m = Manifest::from_json(&readme[start..end]).unwrap();
        let k = m.kernel("k").unwrap();
        let facts = k.launch.as_ref().unwrap();
        assert_eq!(
            (m.version, facts.block, facts.args.len()),
            (2, Some([128, 1, 1]), 2)
        );
        assert_eq!(facts.args[1].mlir_type(), "index");
    }

    #[test]
    fn element_type_names_round_trip() {
        for name in [
            "f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "f8E4M3FN", "f8E5M2",
        ] {
            let t = ElementType::from_mlir_name(name).unwrap();
            assert_eq!(t.mlir_name(), name);
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{name}\""));
        }
        assert_eq!(
            ElementType::ALL.map(ElementType::mlir_name).join(" "),
            "f16 bf16 f32 f64 i8 i16 i32 i64 f8E4M3FN f8E5M2"
        );
        assert_eq!(ElementType::from_mlir_name("f128"), None);
        assert!(ElementType::BF16.is_float());
        assert!(!ElementType::I32.is_float());
    }

    #[test]
    fn swizzle_from_bytes() {
        for swizzle in [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128] {
            assert_eq!(Swizzle::from_bytes(swizzle.bytes().into()), Some(swizzle));
        }
        for bytes in [-32, 16, 96, 256, i64::from(u32::MAX) + 32] {
            assert_eq!(Swizzle::from_bytes(bytes), None, "{bytes}");
        }
    }

    #[test]
    fn oob_fill_names_are_the_json_spelling() {
        for fill in [OobFill::None, OobFill::NanRequestZeroFma] {
            assert_eq!(
                serde_json::to_string(&fill).unwrap(),
                format!("\"{}\"", fill.name())
            );
            assert_eq!(OobFill::from_name(fill.name()), Some(fill));
        }
        assert_eq!(OobFill::from_name("zeros"), None);
    }
}
