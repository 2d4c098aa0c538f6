//! Options shared by the acopy passes, from driver flags or `{key=value}` in a pipeline.

use acopy_target::Chip;

/// Options of `acopy-verify`, `acopy-pipeline` and `acopy-lower`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassOptions {
    /// Overrides the chip of every `gpu.module` (`--chip=` / `chip=`).
    pub chip: Option<Chip>,
    /// Opt-in fallback mode of docs/verification.md (`--acopy-fallback` / `fallback=true`).
    pub fallback: bool,
    /// The largest `stages` a loop may ask for (`max-stages=`, default 8; rule P1).
    pub max_stages: u32,
}

/// The default of `max-stages`.
pub const DEFAULT_MAX_STAGES: u32 = 8;

impl Default for PassOptions {
    fn default() -> Self {
        PassOptions {
            chip: None,
            fallback: false,
            max_stages: DEFAULT_MAX_STAGES,
        }
    }
}

/// A pipeline option that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown option '{key}' for pass '{pass}'; it takes: {}", .takes.join(", "))]
    Unknown {
        pass: String,
        key: String,
        takes: &'static [&'static str],
    },
    #[error("option '{key}' of pass '{pass}' needs a value (`{key}=...`)")]
    MissingValue { pass: String, key: String },
    #[error("option 'fallback' of pass '{pass}' must be true or false, got '{value}'")]
    NotBool { pass: String, value: String },
    #[error(
        "option 'max-stages' of pass '{pass}' must be an integer from 1 to 1024, got '{value}'"
    )]
    NotStages { pass: String, value: String },
    #[error("option '{key}' of pass '{pass}' must be {expected}, got '{value}'")]
    BadValue {
        pass: String,
        key: String,
        value: String,
        expected: &'static str,
    },
    #[error(transparent)]
    Chip(#[from] acopy_target::TargetError),
}

impl PassOptions {
    /// The keys [`PassOptions::parse`] takes.
    pub const OPTIONS: &'static [&'static str] = &["chip", "fallback", "max-stages"];

    /// Reads `key=value key2=value2` (the text between a pass's braces).
    pub fn parse(pass: &str, text: &str) -> Result<Self, OptionError> {
        let mut options = PassOptions::default();
        for item in text.split_whitespace() {
            let (key, value) = match item.split_once('=') {
                Some((key, value)) => (key, Some(value)),
                None => (item, None),
            };
            match key {
                "chip" => {
                    let value = value.ok_or_else(|| OptionError::MissingValue {
                        pass: pass.into(),
                        key: key.into(),
                    })?;
                    options.chip = Some(Chip::parse(value)?);
                }
                "fallback" => {
                    options.fallback = match value {
                        None | Some("true") | Some("1") => true,
                        Some("false") | Some("0") => false,
                        Some(other) => {
                            return Err(OptionError::NotBool {
                                pass: pass.into(),
                                value: other.into(),
                            })
                        }
                    }
                }
                "max-stages" => {
                    let value = value.ok_or_else(|| OptionError::MissingValue {
                        pass: pass.into(),
                        key: key.into(),
                    })?;
                    options.max_stages = value
                        .parse::<u32>()
                        .ok()
                        .filter(|stages| (1..=1024).contains(stages))
                        .ok_or_else(|| OptionError::NotStages {
                            pass: pass.into(),
                            value: value.into(),
                        })?;
                }
                _ => {
                    return Err(OptionError::Unknown {
                        pass: pass.into(),
                        key: key.into(),
                        takes: Self::OPTIONS,
                    })
                }
            }
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_chip_and_fallback() {
        let options = PassOptions::parse("acopy-verify", "chip=sm_90a fallback=true").unwrap();
        assert_eq!(options.chip.map(|chip| chip.name()), Some("sm_90a"));
        assert!(options.fallback);
        assert_eq!(PassOptions::parse("p", "").unwrap(), PassOptions::default());
    }

    #[test]
    fn rejects_bad_options() {
        assert!(matches!(
            PassOptions::parse("p", "chip=sm_75"),
            Err(OptionError::Chip(_))
        ));
        assert!(matches!(
            PassOptions::parse("p", "chip"),
            Err(OptionError::MissingValue { .. })
        ));
        assert!(matches!(
            PassOptions::parse("p", "max-stages=0"),
            Err(OptionError::NotStages { .. })
        ));
        assert_eq!(
            PassOptions::parse("p", "max-stages=3").unwrap().max_stages,
            3
        );
        assert_eq!(PassOptions::default().max_stages, 8);
        assert!(matches!(
            PassOptions::parse("p", "fallback=maybe"),
            Err(OptionError::NotBool { .. })
        ));
        let error = PassOptions::parse("acopy-lower", "speed=11").unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown option 'speed' for pass 'acopy-lower'; it takes: chip, fallback, max-stages"
        );
    }
}
