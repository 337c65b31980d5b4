//! Reverts in words, once for the app and the operator: a custom error of the protocol's contracts that a
//! person meets is said in plain words with its values; any other custom error of the contracts is named with
//! its values; then `Error(string)`, `Panic(uint256)`, or the raw data.

use crate::abi::*;
use alloy_primitives::{hex, Bytes};
use alloy_sol_types::SolInterface;

/// Turns revert data into plain words: a known custom error, any other custom error of the protocol's
/// contracts by its Solidity name, `Error(string)`, or the raw data.
pub fn revert_reason(data: &[u8]) -> String {
    use CallLedger::CallLedgerErrors as C;
    use DuelHook::DuelHookErrors as D;
    use HolderDistributor::HolderDistributorErrors as H;
    use LaunchToken::LaunchTokenErrors as T;
    use Launchpad::LaunchpadErrors as L;
    use RootBuyback::RootBuybackErrors as B;
    use RootPriceOracle::RootPriceOracleErrors as O;
    use ScorerRegistry::ScorerRegistryErrors as S;
    use SwapRouter::SwapRouterErrors as R;
    if data.is_empty() {
        return "the transaction would revert (no reason given)".into();
    }
    let words = match L::abi_decode(data) {
        Ok(L::TokensOutBelowMin(x)) => Some(format!(
            "slippage: you would get {} token units, below your minimum {}",
            x.tokensOut, x.minTokensOut
        )),
        Ok(L::QuoteOutBelowMin(x)) => {
            Some(format!("slippage: you would get {} quote units, below your minimum {}", x.quoteOut, x.minQuoteOut))
        }
        Ok(L::AlreadyGraduated(_)) => Some("this launch has graduated: it trades in its Uniswap pool now".into()),
        Ok(L::DeadlineExpired(_)) => Some("the deadline passed before the transaction was mined".into()),
        Ok(L::UnknownToken(x)) => Some(format!("{} is not a launch of this launchpad", x.token)),
        Ok(L::WrongValue(x)) => Some(format!("wrong ETH value: sent {}, expected {}", x.sent, x.expected)),
        Ok(L::QuoteAssetNotAllowed(x)) => Some(format!("{} is not an allowed quote asset", x.asset)),
        Ok(L::NotGraduated(_)) => Some("this launch has not graduated yet".into()),
        Ok(L::EthTransferFailed(_)) => Some("an ETH transfer failed".into()),
        Ok(L::NothingToCollect(_)) => Some("no fees to collect".into()),
        Ok(L::NotFeeSink(_)) => Some("only the fee sink may do this".into()),
        Ok(L::InvalidConfig(x)) => Some(format!("invalid configuration: {}", x.field)),
        _ => None,
    }
    .or_else(|| match H::abi_decode(data) {
        Ok(H::NotOpen(x)) => Some(format!("the claim window opens at {} (unix time)", x.opensAt)),
        Ok(H::Closed(_)) => Some("the claim window has closed".into()),
        Ok(H::AlreadyClaimed(_)) => Some("this payout was already claimed".into()),
        Ok(H::InvalidProof(_)) => Some("the proof does not match the posted root".into()),
        Ok(H::UnknownRound(_)) => Some("no such payout round".into()),
        Ok(H::AlreadySettled(_)) => Some("the round was rolled over".into()),
        Ok(H::ExceedsRound(_)) => Some("the amount exceeds what the round has left".into()),
        _ => None,
    })
    .or_else(|| match T::abi_decode(data) {
        Ok(T::ERC20InsufficientBalance(x)) => {
            Some(format!("insufficient token balance: have {}, need {}", x.balance, x.needed))
        }
        Ok(T::ERC20InsufficientAllowance(x)) => {
            Some(format!("insufficient allowance: {} approved, {} needed", x.allowance, x.needed))
        }
        _ => None,
    })
    .or_else(|| match C::abi_decode(data) {
        Ok(C::InsufficientStake(x)) => {
            Some(format!("your stake ({} units) is below the minimum ({} units): stake first", x.stake, x.minStake))
        }
        Ok(C::DuplicateCommitment(_)) => Some("this commitment was already posted: use a new salt".into()),
        Ok(C::UnknownCall(x)) => Some(format!("there is no call {}", x.id)),
        Ok(C::NotCallAgent(_)) => Some("only the agent who committed this call may reveal it".into()),
        Ok(C::CommitmentMismatch(_)) => {
            Some("the revealed call does not match the commitment (asset, direction, window or salt differ)".into())
        }
        Ok(C::RevealDeadlinePassed(_)) => Some("the reveal deadline (1 hour after the commit) has passed".into()),
        Ok(C::RevealTooEarly(x)) => Some(format!(
            "a call can be revealed from 5 minutes after its commit; this one opens in {}",
            duration(x.opensAt.saturating_sub(x.timestamp.saturating_to::<u64>()))
        )),
        Ok(C::PriceUnavailable(_)) => Some("no price is available for this asset right now".into()),
        Ok(C::ZeroWindow(_)) => Some("the window must be more than zero seconds".into()),
        _ => None,
    })
    .or_else(|| match O::abi_decode(data) {
        Ok(O::StaleAnswer(x)) => Some(format!(
            "the ETH/USD price is stale ({} s old, at most {} s allowed): no burn can be priced now",
            x.age, x.max
        )),
        Ok(O::AmountOutOfBounds(x)) => Some(format!(
            "the ROOT burn ({} units) is above your cap ({} units): the price moved, try again",
            x.amount, x.max
        )),
        _ => None,
    })
    .or_else(|| match B::abi_decode(data) {
        Ok(B::BuybackBelowMin(x)) => Some(format!(
            "the pool would pay {} ROOT units, below the oracle's minimum {}: its price is off the TWAP (a sandwich?), try later",
            x.rootBought, x.minRootOut
        )),
        Ok(B::HopBelowMin(x)) => Some(format!(
            "the asset's pool would pay {} ETH wei, below the {} its own price feed says it is worth less the slippage (a sandwich?): try later",
            x.ethOut, x.minEthOut
        )),
        Ok(B::PriceOffOracle(x)) => Some(format!(
            "ROOT's pool would end at tick {}, too far from its 30-minute TWAP tick {}: try later",
            x.tick, x.twapTick
        )),
        Ok(B::NothingToBuy(_)) => Some("the buyback holds nothing of this asset".into()),
        Ok(B::NoRoute(x)) => Some(format!("the buyback has no route for {}", x.asset)),
        _ => None,
    })
    .or_else(|| match S::abi_decode(data) {
        Ok(S::AlreadyRegistered(_)) => Some("this account is already registered as a scorer".into()),
        Ok(S::NotRegistered(_)) => Some("this account is not registered as a scorer".into()),
        Ok(S::FundingTooSmall(x)) => Some(format!(
            "a funding must be at least 1 % of what the pool has still to release ({} units here, {} given)",
            x.minimum, x.amount
        )),
        Ok(S::ScoreTooSoon(x)) => Some(format!("the 14-day limit: the next score is allowed at {} (unix time)", x.nextAt)),
        Ok(S::Unstaking(_)) => Some("this scorer is unstaking".into()),
        Ok(S::CooldownActive(x)) => Some(format!("the 7-day unstake cooldown ends at {} (unix time)", x.readyAt)),
        _ => None,
    })
    .or_else(|| match D::abi_decode(data) {
        Ok(D::NothingToSettle(_)) => Some("this duel's round has not closed yet: nothing to settle".into()),
        Ok(D::UnknownDuel(x)) => Some(format!("there is no duel {}", x.duelId)),
        Ok(D::ZeroAmount(_)) => Some("the amount must be more than zero".into()),
        _ => None,
    })
    .or_else(|| match R::abi_decode(data) {
        Ok(R::TooLittleOut(x)) => Some(format!(
            "slippage: the pool would pay {} units, below your minimum {}",
            x.amountOut, x.minAmountOut
        )),
        Ok(R::Expired(_)) => Some("the deadline passed before the transaction was mined".into()),
        Ok(R::WrongValue(x)) => Some(format!("wrong ETH value: sent {}, expected {}", x.sent, x.expected)),
        Ok(R::ZeroAmount(_)) => Some("the amount must be more than zero".into()),
        Ok(R::AmountTooLarge(_)) => Some("the amount is too large for a pool swap".into()),
        Ok(R::UnexpectedDelta(_)) => Some("this pool's hook changes swap amounts: the router refuses it".into()),
        _ => None,
    });
    if let Some(w) = words {
        return w;
    }
    if let Ok(s) = <alloy_sol_types::Revert as alloy_sol_types::SolError>::abi_decode(data) {
        return s.reason;
    }
    if let Some(named) = named_error(data) {
        return format!("the contract refused: {named}");
    }
    format!(
        "the transaction would revert ({})",
        hex::encode_prefixed(Bytes::copy_from_slice(data))
    )
}

/// A custom error of any of the protocol's contracts with its values, `WindowOpen { epoch: 3, .. }`, from
/// the contract's own decoder (the bindings' `Debug`).
fn named_error(data: &[u8]) -> Option<String> {
    macro_rules! first_of {
        ($($errs:ty),*) => {$(
            if let Ok(e) = <$errs>::abi_decode(data) {
                return Some(unwrap_variant(&format!("{e:?}")));
            }
        )*};
    }
    first_of!(
        Launchpad::LaunchpadErrors,
        HolderDistributor::HolderDistributorErrors,
        LaunchToken::LaunchTokenErrors,
        LaunchLocker::LaunchLockerErrors,
        EpochRegistry::EpochRegistryErrors,
        SourceKeyRegistry::SourceKeyRegistryErrors,
        FeeLanes::FeeLanesErrors,
        CallLedger::CallLedgerErrors,
        RootPriceOracle::RootPriceOracleErrors,
        RootBuyback::RootBuybackErrors,
        ScorerRegistry::ScorerRegistryErrors,
        DuelHook::DuelHookErrors,
        SwapRouter::SwapRouterErrors,
        TimelockController::TimelockControllerErrors
    );
    None
}

/// `Name(Name { a: 1 })` (an errors enum's `Debug`) as `Name { a: 1 }`; `Name(Name)` as `Name`.
fn unwrap_variant(debug: &str) -> String {
    if let Some((name, rest)) = debug.split_once('(') {
        if let Some(inner) = rest.strip_suffix(')') {
            if inner.starts_with(name) {
                return inner.to_string();
            }
        }
    }
    debug.to_string()
}

/// The Solidity signature of a custom error of any of the protocol's contracts, from its selector:
/// `"NothingToSettle(uint256)"`.
pub fn error_signature(data: &[u8]) -> Option<&'static str> {
    let selector: [u8; 4] = data.get(..4)?.try_into().ok()?;
    Launchpad::LaunchpadErrors::signature_by_selector(selector)
        .or_else(|| HolderDistributor::HolderDistributorErrors::signature_by_selector(selector))
        .or_else(|| LaunchToken::LaunchTokenErrors::signature_by_selector(selector))
        .or_else(|| LaunchLocker::LaunchLockerErrors::signature_by_selector(selector))
        .or_else(|| EpochRegistry::EpochRegistryErrors::signature_by_selector(selector))
        .or_else(|| SourceKeyRegistry::SourceKeyRegistryErrors::signature_by_selector(selector))
        .or_else(|| FeeLanes::FeeLanesErrors::signature_by_selector(selector))
        .or_else(|| CallLedger::CallLedgerErrors::signature_by_selector(selector))
        .or_else(|| RootPriceOracle::RootPriceOracleErrors::signature_by_selector(selector))
        .or_else(|| RootBuyback::RootBuybackErrors::signature_by_selector(selector))
        .or_else(|| ScorerRegistry::ScorerRegistryErrors::signature_by_selector(selector))
        .or_else(|| DuelHook::DuelHookErrors::signature_by_selector(selector))
        .or_else(|| SwapRouter::SwapRouterErrors::signature_by_selector(selector))
        .or_else(|| TimelockController::TimelockControllerErrors::signature_by_selector(selector))
}

/// A duration in its two largest units: `"2 d 3 h"`, `"4 h 5 min"`, `"6 min 7 s"`, `"8 s"`.
pub fn duration(secs: u64) -> String {
    let (d, h, m, s) = (
        secs / 86_400,
        secs % 86_400 / 3_600,
        secs % 3_600 / 60,
        secs % 60,
    );
    if d > 0 {
        format!("{d} d {h} h")
    } else if h > 0 {
        format!("{h} h {m} min")
    } else if m > 0 {
        format!("{m} min {s} s")
    } else {
        format!("{s} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;
    use alloy_sol_types::SolError;

    #[test]
    fn revert_reasons_in_words() {
        let e = ILaunchpad::TokensOutBelowMin {
            tokensOut: U256::from(5),
            minTokensOut: U256::from(7),
        };
        assert!(revert_reason(&e.abi_encode()).contains("slippage"));
        let r = alloy_sol_types::Revert {
            reason: "nope".into(),
        };
        assert_eq!(revert_reason(&r.abi_encode()), "nope");
        assert!(revert_reason(&[]).contains("no reason"));
        assert!(revert_reason(&[1, 2, 3, 4]).contains("0x01020304"));
        // The ROOT buyback's guards, in words (C26).
        let e = RootBuyback::PriceOffOracle {
            tick: alloy_primitives::aliases::I24::try_from(75_000).unwrap(),
            twapTick: alloy_primitives::aliases::I24::try_from(76_013).unwrap(),
        };
        assert!(
            revert_reason(&e.abi_encode()).contains("too far from its 30-minute TWAP tick 76013")
        );
        let e = RootBuyback::BuybackBelowMin {
            rootBought: U256::from(5),
            minRootOut: U256::from(7),
        };
        assert!(revert_reason(&e.abi_encode()).contains("below the oracle's minimum 7"));
        // Any other custom error of the contracts is named by its Solidity signature.
        let e = ScorerRegistry::PoolNotConfigured {
            token: alloy_primitives::Address::ZERO,
        };
        assert_eq!(
            revert_reason(&e.abi_encode()),
            "the contract refused: PoolNotConfigured { token: 0x0000000000000000000000000000000000000000 }"
        );
        assert_eq!(
            error_signature(&e.abi_encode()),
            Some("PoolNotConfigured(address)")
        );
        // The operator's registries and the locker are read too.
        let e = EpochRegistry::WindowOpen {
            epoch: 3,
            deadline: 9,
        };
        assert!(revert_reason(&e.abi_encode())
            .starts_with("the contract refused: WindowOpen { epoch: 3"));
        let e = LaunchLocker::GrowthBelowMin {
            tokensBought: U256::from(5),
            minTokensOut: U256::MAX,
        };
        assert!(revert_reason(&e.abi_encode()).contains("GrowthBelowMin { tokensBought: 5"));
        assert_eq!(duration(93_784), "1 d 2 h");
        assert_eq!(duration(61), "1 min 1 s");
    }
}
