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
    signer_from(keystore, key_env, |name| std::env::var(name).ok())
}

/// [`signer`] with the environment read through `env` (the tests pass their own).
fn signer_from(
    keystore: Option<&Path>,
    key_env: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Result<PrivateKeySigner> {
    if let Some(path) = keystore {
        let password = env(KEYSTORE_PASSWORD_ENV).ok_or_else(|| {
            OpError::Key(format!(
                "{KEYSTORE_PASSWORD_ENV} is not set (the password of {})",
                path.display()
            ))
        })?;
        return PrivateKeySigner::decrypt_keystore(path, password)
            .map_err(|e| OpError::Key(format!("{}: {e}", path.display())));
    }
    let hex = env(key_env).ok_or_else(|| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::address;

    /// The PBKDF2 test vector of the Web3 Secret Storage definition (password "testpassword").
    const SPEC_KEYSTORE: &str = r#"{
        "crypto": {
            "cipher": "aes-128-ctr",
            "cipherparams": {"iv": "6087dab2f9fdbbfaddc31a909735c1e6"},
            "ciphertext": "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
            "kdf": "pbkdf2",
            "kdfparams": {"c": 262144, "dklen": 32, "prf": "hmac-sha256", "salt": "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd"},
            "mac": "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2"
        },
        "id": "3198bc9c-6672-5ab3-d995-4942343ae5b6",
        "version": 3
    }"#;

    /// The vector in a file of this test's own (tests run in parallel).
    fn keystore_file(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("eden-keystore-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{test}.json"));
        std::fs::write(&path, SPEC_KEYSTORE).unwrap();
        path
    }

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn key_error(r: Result<PrivateKeySigner>) -> String {
        match r {
            Err(OpError::Key(m)) => m,
            Err(e) => panic!("not a key error: {e}"),
            Ok(k) => panic!("a key was read: {}", k.address()),
        }
    }

    #[test]
    fn a_keystore_file_decrypts_with_the_password_from_the_environment() {
        let path = keystore_file("decrypts");
        let vars = [(KEYSTORE_PASSWORD_ENV, "testpassword")];
        let key = signer_from(Some(&path), DEFAULT_KEY_ENV, env(&vars)).unwrap();
        assert_eq!(
            key.address(),
            address!("008AeEda4D805471dF9b2A5B0f38A0C3bCBA786b")
        );
        // The keystore wins over a key in the environment.
        let vars = [
            (KEYSTORE_PASSWORD_ENV, "testpassword"),
            (
                DEFAULT_KEY_ENV,
                "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
            ),
        ];
        let key = signer_from(Some(&path), DEFAULT_KEY_ENV, env(&vars)).unwrap();
        assert_eq!(
            key.address(),
            address!("008AeEda4D805471dF9b2A5B0f38A0C3bCBA786b")
        );
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_wrong_or_missing_password_or_file_is_a_key_error_naming_it() {
        let path = keystore_file("refused");
        let wrong = key_error(signer_from(
            Some(&path),
            DEFAULT_KEY_ENV,
            env(&[(KEYSTORE_PASSWORD_ENV, "not the password")]),
        ));
        assert!(wrong.contains("refused.json"), "{wrong}");
        let missing = key_error(signer_from(Some(&path), DEFAULT_KEY_ENV, env(&[])));
        assert!(missing.contains(KEYSTORE_PASSWORD_ENV), "{missing}");
        let nofile = key_error(signer_from(
            Some(Path::new("/nonexistent/eden-keystore.json")),
            DEFAULT_KEY_ENV,
            env(&[(KEYSTORE_PASSWORD_ENV, "testpassword")]),
        ));
        assert!(
            nofile.contains("/nonexistent/eden-keystore.json"),
            "{nofile}"
        );
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_key_comes_from_the_named_variable_only() {
        let vars = [(
            "OPERATOR_KEY",
            " ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80\n",
        )];
        let key = signer_from(None, "OPERATOR_KEY", env(&vars)).unwrap();
        assert_eq!(
            key.address(),
            address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        );
        let none = key_error(signer_from(None, DEFAULT_KEY_ENV, env(&vars)));
        assert!(
            none.contains(DEFAULT_KEY_ENV) && none.contains("--keystore"),
            "{none}"
        );
        let bad = key_error(signer_from(
            None,
            "OPERATOR_KEY",
            env(&[("OPERATOR_KEY", "0x12")]),
        ));
        assert!(bad.contains("OPERATOR_KEY: not a private key"), "{bad}");
    }
}
