//! The launchpad's list of launches (B1), read once for the app and the operator: its parameters (launch
//! count, token supply, curve fee) in one batch and its tokens, in launch order, in another. A launch's
//! record and curve are read where they are used (the app's launch list, the keeper's fee duties).

use crate::abi::Launchpad;
use crate::batch::Batch;
use crate::read::{ChainRead, ReadError};
use alloy_primitives::{Address, U256};

/// The launchpad's launch count, token supply and curve fee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PadParams {
    /// Launches so far (`Launchpad.tokens` only grows).
    pub count: u64,
    /// Every launched token's supply (wei).
    pub supply: U256,
    /// The curve's fee (basis points).
    pub fee_bps: u16,
}

/// The launchpad's parameters, in one batch.
///
/// # Errors
/// The transport's; an answer that does not decode (an address without code).
pub async fn params<R: ChainRead>(
    chain: &R,
    pad: Address,
) -> Result<PadParams, ReadError<R::Error>> {
    let mut b = Batch::new();
    let n = b.add(pad, &Launchpad::launchCountCall {});
    let supply = b.add(pad, &Launchpad::supplyCall {});
    let fee = b.add(pad, &Launchpad::feeBpsCall {});
    let mut a = b.run(chain).await?;
    Ok(PadParams {
        count: u64::try_from(a.take(n)?).unwrap_or(u64::MAX),
        supply: a.take(supply)?,
        fee_bps: a.take(fee)?,
    })
}

/// Every asset the launchpad allows as a quote now, with its Φ (`virtualQuoteOf`, WAD of the asset's units), in
/// the order first allowed (ETH first): the listed assets from state (`quoteAssets`, issue 38: no log scan),
/// then their Φ in one batch; an asset set back to Φ = 0 is left out.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn quote_assets<R: ChainRead>(
    chain: &R,
    pad: Address,
) -> Result<Vec<(Address, U256)>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let listed = b.add(pad, &Launchpad::quoteAssetsCall {});
    let assets = b.run(chain).await?.take(listed)?;
    let mut b = Batch::new();
    let slots: Vec<_> = assets
        .iter()
        .map(|&asset| b.add(pad, &Launchpad::virtualQuoteOfCall { asset }))
        .collect();
    let mut a = b.run(chain).await?;
    let mut out = Vec::with_capacity(assets.len());
    for (asset, slot) in assets.into_iter().zip(slots) {
        let phi = a.take(slot)?;
        if !phi.is_zero() {
            out.push((asset, phi));
        }
    }
    Ok(out)
}

/// The launchpad's tokens `from..to` (launch indices), in launch order, in one batch.
///
/// # Errors
/// The transport's; a read that reverts (an index past the count) or does not decode.
pub async fn tokens<R: ChainRead>(
    chain: &R,
    pad: Address,
    from: u64,
    to: u64,
) -> Result<Vec<Address>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slots: Vec<_> = (from..to)
        .map(|i| b.add(pad, &Launchpad::tokensCall(U256::from(i))))
        .collect();
    let mut a = b.run(chain).await?;
    slots.into_iter().map(|s| a.take(s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{Log, LogFilter};
    use alloy_primitives::Bytes;
    use alloy_sol_types::{SolCall, SolValue};
    use std::collections::BTreeMap;

    /// A launchpad with three launches; it counts the calls it is sent.
    struct Pad(std::cell::Cell<usize>);

    impl ChainRead for Pad {
        type Error = String;

        async fn logs(&self, _: &LogFilter, _: u64, _: u64) -> Result<Vec<Log>, String> {
            unreachable!()
        }

        async fn block_timestamps(&self, _: &[u64]) -> Result<BTreeMap<u64, u64>, String> {
            unreachable!()
        }

        async fn call_batch(
            &self,
            calls: &[(Address, Bytes)],
            _: Option<u64>,
        ) -> Result<Vec<Result<Bytes, String>>, String> {
            self.0.set(self.0.get() + 1);
            Ok(calls
                .iter()
                .map(|(_, d)| match d[..4].try_into().unwrap() {
                    Launchpad::launchCountCall::SELECTOR => Ok(U256::from(3).abi_encode().into()),
                    Launchpad::supplyCall::SELECTOR => Ok(U256::from(10).abi_encode().into()),
                    Launchpad::feeBpsCall::SELECTOR => Ok(U256::from(100).abi_encode().into()),
                    Launchpad::quoteAssetsCall::SELECTOR => Ok(vec![
                        Address::ZERO,
                        Address::repeat_byte(7),
                        Address::repeat_byte(8),
                    ]
                    .abi_encode()
                    .into()),
                    Launchpad::virtualQuoteOfCall::SELECTOR => {
                        // Asset 7 was set back to Φ = 0.
                        let asset = Address::abi_decode(&d[4..]).unwrap();
                        let phi = if asset == Address::repeat_byte(7) {
                            0
                        } else {
                            5
                        };
                        Ok(U256::from(phi).abi_encode().into())
                    }
                    _ => {
                        let i = U256::abi_decode(&d[4..]).unwrap();
                        if i < U256::from(3) {
                            Ok(Address::repeat_byte(i.to::<u8>() + 1).abi_encode().into())
                        } else {
                            Err("index out of range".to_string())
                        }
                    }
                })
                .collect())
        }
    }

    #[test]
    fn the_list_is_read_in_one_batch_from_where_it_was_left() {
        let pad = Pad(0.into());
        let p = futures::executor::block_on(params(&pad, Address::ZERO)).unwrap();
        assert_eq!((p.count, p.supply, p.fee_bps), (3, U256::from(10), 100));
        let rest = futures::executor::block_on(tokens(&pad, Address::ZERO, 1, p.count)).unwrap();
        assert_eq!(rest, [Address::repeat_byte(2), Address::repeat_byte(3)]);
        assert_eq!(pad.0.get(), 2, "one batch each");
        assert!(
            futures::executor::block_on(tokens(&pad, Address::ZERO, 1, 1))
                .unwrap()
                .is_empty()
        );
        assert_eq!(pad.0.get(), 2, "nothing to read, nothing sent");
        assert!(matches!(
            futures::executor::block_on(tokens(&pad, Address::ZERO, 2, 4)),
            Err(ReadError::Transport(_))
        ));
        let quotes = futures::executor::block_on(quote_assets(&pad, Address::ZERO)).unwrap();
        assert_eq!(
            quotes,
            [
                (Address::ZERO, U256::from(5)),
                (Address::repeat_byte(8), U256::from(5))
            ],
            "listed from state, ETH first, a disallowed asset left out"
        );
    }
}
