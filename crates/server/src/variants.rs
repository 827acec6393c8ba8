//! Variants by name, loaded once per process. Games on an uploaded variant keep its
//! text in the database, so any server sharing the database can load it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chancery_engine::lint::{lint, Severity};
use chancery_engine::variant_file::load_variant;
use chancery_engine::Variant;
use sha2::{Digest, Sha256};

#[derive(Default)]
pub struct Cache {
    loaded: Mutex<HashMap<String, Arc<Variant>>>,
}

impl Cache {
    /// A built-in variant by name, or the uploaded `text` when given.
    pub fn get(&self, name: &str, text: Option<&str>) -> Result<Arc<Variant>, String> {
        let key = match text {
            Some(t) => format!("upload:{}", hex::encode(Sha256::digest(t.as_bytes()))),
            None => format!("builtin:{}", name.to_ascii_lowercase()),
        };
        if let Some(v) = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(v.clone());
        }
        let variant = match text {
            Some(t) => load_variant(name, t).map_err(|e| e.to_string())?,
            None => match chancery_engine::builtin::builtin(name) {
                Some(r) => r.map_err(|e| e.to_string())?,
                None => {
                    return Err(format!(
                        "unknown variant `{name}`; the built-in ones are: {}",
                        chancery_engine::builtin::builtin_names().collect::<Vec<_>>().join(", ")
                    ))
                }
            },
        };
        let variant = Arc::new(variant);
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, variant.clone());
        Ok(variant)
    }
}

/// Loads an uploaded variant file and refuses it when the lint finds errors.
pub fn check_upload(name: &str, text: &str) -> Result<Variant, String> {
    let v = load_variant(name, text).map_err(|e| e.to_string())?;
    let errors: Vec<String> = lint(&v)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message)
        .collect();
    if errors.is_empty() {
        Ok(v)
    } else {
        Err(format!("the variant file has errors: {}", errors.join("; ")))
    }
}
