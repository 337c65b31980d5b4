//! Measures what alloy's provider (HTTP over the browser's fetch, with its retry layer and Multicall3
//! aggregation) adds to a wasm32 module, against the same module reading one `eth_call` by hand.
use wasm_bindgen::prelude::*;

alloy_sol_types::sol! {
    function decimals() external view returns (uint8);
}

/// One `eth_call` of `decimals()` on `token` through `url`; the decoded answer.
#[wasm_bindgen]
pub async fn decimals_of(url: String, token: String) -> Result<u32, JsValue> {
    let token: alloy_primitives::Address = token.parse().map_err(|e| JsValue::from_str(&format!("{e}")))?;
    run(url, token).await.map_err(|e| JsValue::from_str(&e))
}

#[cfg(feature = "provider")]
alloy::sol! {
    #[sol(rpc)]
    interface IERC20 {
        function decimals() external view returns (uint8);
    }
}

#[cfg(feature = "provider")]
async fn run(url: String, token: alloy_primitives::Address) -> Result<u32, String> {
    use alloy::providers::{Provider, ProviderBuilder};
    use alloy::rpc::client::RpcClient;
    use alloy::transports::layers::RetryBackoffLayer;
    let client = RpcClient::builder()
        .layer(RetryBackoffLayer::new(5, 500, 330))
        .http(url.parse().map_err(|e| format!("{e}"))?);
    let provider = ProviderBuilder::new().connect_client(client);
    let erc20 = IERC20::new(token, &provider);
    let d = erc20.decimals().call().await.map_err(|e| e.to_string())?;
    // Multicall3 aggregation through the provider.
    let (a, b) = provider
        .multicall()
        .add(erc20.decimals())
        .add(erc20.decimals())
        .aggregate()
        .await
        .map_err(|e| e.to_string())?;
    let n = provider.get_block_number().await.map_err(|e| e.to_string())?;
    Ok(u32::from(d) + u32::from(a) + u32::from(b) + n as u32)
}

#[cfg(not(feature = "provider"))]
async fn run(_url: String, _token: alloy_primitives::Address) -> Result<u32, String> {
    // The baseline: the same call encoded and decoded by hand, sent by the app's own fetch (not here).
    use alloy_sol_types::SolCall;
    let data = decimalsCall {}.abi_encode();
    let v = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"data": alloy_primitives::hex::encode_prefixed(&data)}, "latest"]});
    Ok(v.to_string().len() as u32)
}
