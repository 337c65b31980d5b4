//! Token labels for people: each ERC-20's symbol and decimals read in one batch, native ETH (the
//! zero address) as "ETH" with 18 decimals, and "?" / 18 for a token that does not say. No Leptos
//! here.

use crate::chain::abi::IERC20;
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::Address;
use std::collections::BTreeMap;

/// Symbols and decimals by token.
#[derive(Debug, Clone, Default)]
pub struct TokenLabels {
    labels: BTreeMap<Address, (String, u8)>,
}

impl TokenLabels {
    /// Reads the labels of `tokens` (duplicates and the zero address skipped) in one batch.
    ///
    /// # Errors
    /// When the batch as a whole fails (a token that does not answer is labelled "?").
    pub async fn read(
        rpc: &Rpc,
        tokens: impl IntoIterator<Item = Address>,
    ) -> Result<Self, RpcError> {
        let mut list: Vec<Address> = tokens.into_iter().filter(|t| !t.is_zero()).collect();
        list.sort();
        list.dedup();
        let mut b = Batch::new();
        let slots: Vec<_> = list
            .iter()
            .map(|&t| {
                (
                    b.add(t, &IERC20::symbolCall {}),
                    b.add(t, &IERC20::decimalsCall {}),
                )
            })
            .collect();
        let a = b.run(rpc).await?;
        let labels = list
            .into_iter()
            .zip(slots)
            .map(|(t, (s, d))| {
                (
                    t,
                    (
                        a.get(s).unwrap_or_else(|_| "?".into()),
                        a.get(d).unwrap_or(18),
                    ),
                )
            })
            .collect();
        Ok(Self { labels })
    }

    /// `token`'s symbol and decimals.
    pub fn get(&self, token: Address) -> (String, u8) {
        if token.is_zero() {
            return ("ETH".into(), 18);
        }
        self.labels
            .get(&token)
            .cloned()
            .unwrap_or_else(|| ("?".into(), 18))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eth_and_unknown_tokens_have_labels() {
        let mut l = TokenLabels::default();
        l.labels.insert(Address::repeat_byte(1), ("USDG".into(), 6));
        assert_eq!(l.get(Address::ZERO), ("ETH".to_string(), 18));
        assert_eq!(l.get(Address::repeat_byte(1)), ("USDG".to_string(), 6));
        assert_eq!(l.get(Address::repeat_byte(2)), ("?".to_string(), 18));
    }
}
