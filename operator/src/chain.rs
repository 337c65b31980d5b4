//! The chain: a provider on the network description's RPC (or `--rpc-url`), the operator's key, and the
//! reads the commands need (the registry's epoch state, the source keys).

use crate::abi::{EpochRegistry, SourceKeyRegistry};
use crate::error::{OpError, Result};
use alloy::eips::BlockId;
use alloy::network::EthereumWallet;
use alloy::primitives::{Address, B256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::Filter;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolEvent;
use eden_core::attest::KeyBook;
use eden_core::network::NetworkDescription;
use std::path::Path;

/// Environment variable holding the operator's private key unless `--key-env` names another.
pub const DEFAULT_KEY_ENV: &str = "EDEN_PRIVATE_KEY";
/// Environment variable holding a keystore file's password.
pub const KEYSTORE_PASSWORD_ENV: &str = "EDEN_KEYSTORE_PASSWORD";

/// The operator's key: from a keystore file (password in `EDEN_KEYSTORE_PASSWORD`) or from the
/// environment variable `key_env`. Never from a command-line flag (it would be in the shell history and
/// the process list).
pub fn signer(keystore: Option<&Path>, key_env: &str) -> Result<PrivateKeySigner> {
    if let Some(path) = keystore {
        let password = std::env::var(KEYSTORE_PASSWORD_ENV).map_err(|_| {
            OpError::Key(format!(
                "{KEYSTORE_PASSWORD_ENV} is not set (the password of {})",
                path.display()
            ))
        })?;
        return PrivateKeySigner::decrypt_keystore(path, password)
            .map_err(|e| OpError::Key(format!("{}: {e}", path.display())));
    }
    let hex = std::env::var(key_env).map_err(|_| {
        OpError::Key(format!(
            "no key: set {key_env} to a private key, or pass --keystore FILE (password in {KEYSTORE_PASSWORD_ENV})"
        ))
    })?;
    hex.trim()
        .parse::<PrivateKeySigner>()
        .map_err(|e| OpError::Key(format!("{key_env}: not a private key ({e})")))
}

/// Signs a 32-byte digest as the contracts and `eden_core::eip712::parse_signature` take it: 65 bytes
/// `r ‖ s ‖ v` with `v` 27 or 28 (alloy's signer gives low `s` and a 0/1 parity).
///
/// # Errors
/// [`OpError::Key`] when the signer fails.
pub fn sign_digest(key: &PrivateKeySigner, digest: &B256) -> Result<Vec<u8>> {
    use alloy::signers::SignerSync;
    let sig = key
        .sign_hash_sync(digest)
        .map_err(|e| OpError::Key(e.to_string()))?;
    let mut bytes = sig.as_bytes().to_vec();
    if bytes[64] < 27 {
        bytes[64] += 27;
    }
    Ok(bytes)
}

/// A connection to the deployment.
pub struct Chain {
    /// The network description.
    pub net: NetworkDescription,
    /// The provider (with the operator's wallet when one was given).
    pub provider: DynProvider,
    /// The sending account, when a key was given.
    pub from: Option<Address>,
}

impl Chain {
    /// Connects to `rpc` (default: the description's first RPC URL), checking the chain id.
    ///
    /// # Errors
    /// [`OpError::Rpc`] when the node is unreachable or serves another chain.
    pub async fn connect(
        net: NetworkDescription,
        rpc: Option<&str>,
        key: Option<PrivateKeySigner>,
    ) -> Result<Chain> {
        let url = rpc
            .map(str::to_string)
            .or_else(|| net.rpc_urls.first().cloned())
            .ok_or_else(|| OpError::input("network", "no RPC URL (pass --rpc-url)"))?;
        let parsed = url
            .parse()
            .map_err(|e| OpError::input("--rpc-url", format!("{url}: {e}")))?;
        let from = key.as_ref().map(|k| k.address());
        let provider = match key {
            Some(k) => ProviderBuilder::new()
                .wallet(EthereumWallet::from(k))
                .connect_http(parsed)
                .erased(),
            None => ProviderBuilder::new().connect_http(parsed).erased(),
        };
        let id = provider
            .get_chain_id()
            .await
            .map_err(|e| OpError::Rpc(format!("{url}: {e}")))?;
        if id != net.chain_id {
            return Err(OpError::Rpc(format!(
                "{url} serves chain {id}, the network description is chain {}",
                net.chain_id
            )));
        }
        Ok(Chain {
            net,
            provider,
            from,
        })
    }

    /// The epoch registry.
    pub fn registry(&self) -> EpochRegistry::EpochRegistryInstance<DynProvider> {
        EpochRegistry::new(self.net.contracts.epoch_registry, self.provider.clone())
    }

    /// The source-key registry, which the deployment must have.
    pub fn key_registry(
        &self,
    ) -> Result<SourceKeyRegistry::SourceKeyRegistryInstance<DynProvider>> {
        let a = self.net.contracts.source_key_registry.ok_or_else(|| {
            OpError::Refused(
                "this deployment has no sourceKeyRegistry in its network description".into(),
            )
        })?;
        Ok(SourceKeyRegistry::new(a, self.provider.clone()))
    }

    /// The latest block's number and timestamp.
    pub async fn head(&self) -> Result<(u64, u64)> {
        let b = self
            .provider
            .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
            .await
            .map_err(OpError::rpc)?
            .ok_or_else(|| OpError::Rpc("no latest block".into()))?;
        Ok((b.header.number, b.header.timestamp))
    }

    /// The sending account, or an error saying a key is needed.
    pub fn sender(&self) -> Result<Address> {
        self.from
            .ok_or_else(|| OpError::Key("this command sends a transaction: give a key".into()))
    }

    /// Every source key registered up to block `at`, with its window as the registry holds it at `at`
    /// (`SourceKeyRegistered` logs from the deployment block, then `keyOf` per key).
    pub async fn key_book(&self, at: u64) -> Result<KeyBook> {
        let reg = self.key_registry()?;
        let filter = Filter::new()
            .address(*reg.address())
            .event_signature(SourceKeyRegistry::SourceKeyRegistered::SIGNATURE_HASH)
            .from_block(self.net.deployment_block)
            .to_block(at);
        let logs = self
            .provider
            .get_logs(&filter)
            .await
            .map_err(OpError::rpc)?;
        let mut book = KeyBook::new();
        for log in logs {
            let ev = log
                .log_decode::<SourceKeyRegistry::SourceKeyRegistered>()
                .map_err(OpError::rpc)?;
            let (project, key) = (ev.inner.data.project, ev.inner.data.key);
            let rec = reg
                .keyOf(project, key)
                .block(BlockId::number(at))
                .call()
                .await
                .map_err(OpError::rpc)?;
            book.register(project, key, B256::from(rec.source), rec.registeredAt);
            if rec.revokedAt != 0 {
                book.revoke(project, key, rec.revokedAt);
            }
        }
        Ok(book)
    }
}

/// A send's outcome, for the report.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sent {
    /// Transaction hash.
    pub tx: B256,
    /// Block it was mined in.
    pub block: u64,
    /// Gas used.
    pub gas_used: u64,
}

/// Waits for a pending transaction and requires success.
pub async fn confirm(
    pending: alloy::providers::PendingTransactionBuilder<alloy::network::Ethereum>,
) -> Result<Sent> {
    let r = pending
        .get_receipt()
        .await
        .map_err(|e| OpError::Tx(e.to_string()))?;
    if !r.status() {
        return Err(OpError::Tx(format!("{} reverted", r.transaction_hash)));
    }
    Ok(Sent {
        tx: r.transaction_hash,
        block: r.block_number.unwrap_or_default(),
        gas_used: r.gas_used,
    })
}

/// A revert's reason as the contract's custom error, where the ABI knows it.
pub fn revert_reason(e: &alloy::contract::Error) -> String {
    if let Some(err) = e.as_decoded_interface_error::<EpochRegistry::EpochRegistryErrors>() {
        return format!("{err:?}");
    }
    if let Some(err) = e.as_decoded_interface_error::<SourceKeyRegistry::SourceKeyRegistryErrors>()
    {
        return format!("{err:?}");
    }
    e.to_string()
}
