//! The acopy tensor-map manifest.
//!
//! The compiler lowers every TMA copy to a `cp.async.bulk.tensor` instruction that reads
//! a `CUtensorMap`. Such a map can only be built on the host (`cuTensorMapEncodeTiled`), so
//! each kernel gets trailing `__grid_constant__ CUtensorMap` parameters, and the compiler
//! writes this manifest to tell host code, for every one of those parameters, which
//! kernel argument it describes and how to encode it.
//!
//! See `README.md` of this crate for the JSON format.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The manifest format version this crate reads and writes.
pub const MANIFEST_VERSION: u32 = 1;

/// The largest tensor rank TMA supports.
pub const MAX_RANK: usize = 5;

/// Errors from reading or checking a manifest.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// Not valid JSON, or JSON that does not match the schema (missing field, unknown
    /// element type, swizzle that is not 0/32/64/128, ...).
    #[error("invalid tensor-map manifest: {0}")]
    Json(#[from] serde_json::Error),
    #[error("unsupported tensor-map manifest version {found}; this build reads version {MANIFEST_VERSION}")]
    UnsupportedVersion { found: u32 },
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
}

/// The whole manifest: one entry per kernel that needs tensor maps (kernels without
/// TMA copies may be listed with an empty `tensor_maps`).
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
    /// Dynamic shared memory in bytes the kernel needs at every launch (the
    /// slots of a pipelined loop moved there), when it needs any. Optional in
    /// JSON, and left out when `None`, so version 1 files without it read and
    /// write as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_shared_memory: Option<u32>,
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

    /// Parse and check a manifest.
    pub fn from_json(text: &str) -> Result<Manifest, ManifestError> {
        let m: Manifest = serde_json::from_str(text)?;
        m.validate()?;
        Ok(m)
    }

    /// Check the rules that the JSON schema alone does not express.
    pub fn validate(&self) -> Result<(), ManifestError> {
        if self.version != MANIFEST_VERSION {
            return Err(ManifestError::UnsupportedVersion {
                found: self.version,
            });
        }
        for k in &self.kernels {
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
                tensor_maps: vec![
                    TensorMapEntry::new(2, 0, ElementType::F32, vec![64, 128]),
                    swz,
                ],
            }],
        }
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
        let e = Manifest::from_json(r#"{"version":2,"kernels":[]}"#).unwrap_err();
        assert!(matches!(e, ManifestError::UnsupportedVersion { found: 2 }));
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
