//! JS export for `crate::network` (D1): `parseNetworkDescription`.

use super::{err, to_js};
use crate::network::NetworkDescription;
use wasm_bindgen::prelude::*;

/// `parseNetworkDescription(json)` → [`NetworkDescription`]: parses and validates a deployment's
/// `eden-network-v1` description (D1); throws naming the first bad field
/// (`contracts.launchpad: the zero address`), including any unknown field.
#[wasm_bindgen(js_name = parseNetworkDescription, unchecked_return_type = "NetworkDescription")]
pub fn parse_network_description(
    #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
) -> Result<JsValue, JsValue> {
    let json = super::text_from_js("json", &json)?;
    let d = NetworkDescription::parse(&json).map_err(|e| err("network", e))?;
    to_js(&d)
}
