//! The connected agent's stake (A1): stake more of the ledger's stake token (after an exact
//! approval when the allowance is short) or withdraw some, which the ledger allows only with no
//! open call. Amounts are checked here, in words, before any transaction.

use crate::chain::abi::ICallLedger;
use crate::chain::calls::CallsRef;
use crate::chain::rpc::{Rpc, TxRequest};
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{Amount, ErrorBox};
use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use leptos::prelude::*;

/// The connected account in the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MyStake {
    pub stake: U256,
    pub open: u64,
    /// Its stake-token balance and allowance to the ledger.
    pub balance: U256,
    pub allowance: U256,
}

/// Why an amount cannot be staked or unstaked, before any transaction.
pub fn check_amount(
    text: &str,
    decimals: u8,
    symbol: &str,
    me: &MyStake,
    unstake: bool,
) -> Result<U256, String> {
    let amount = fmt::parse_units(text, decimals).map_err(|e| e.to_string())?;
    if amount.is_zero() {
        return Err("Enter an amount above zero.".into());
    }
    if unstake {
        if me.open != 0 {
            return Err(format!(
                "You have {} open call(s): the ledger returns stake only when none is open (reveal and resolve them, or let them expire).",
                me.open
            ));
        }
        if amount > me.stake {
            return Err(format!(
                "You have {} {symbol} staked.",
                fmt::units(me.stake, decimals, 6)
            ));
        }
    } else if amount > me.balance {
        return Err(format!(
            "Your wallet holds {} {symbol}.",
            fmt::units(me.balance, decimals, 6)
        ));
    }
    Ok(amount)
}

/// The stake form of the connected account.
#[component]
pub fn StakeForm(calls: CallsRef, min_stake: U256, me: MyStake, rpc: Rpc) -> impl IntoView {
    let ctx = Ctx::get();
    let amount = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let (ledger, token, dec) = (calls.ledger, calls.stake_token, calls.stake_decimals);
    let sym = calls.stake_symbol.clone();
    let me2 = me.clone();
    let go = move |unstake: bool| {
        error.set(None);
        let a = match check_amount(&amount.get_untracked(), dec, &sym, &me2, unstake) {
            Ok(a) => a,
            Err(e) => return error.set(Some(e)),
        };
        let display = format!("{} {}", fmt::units(a, dec, 6), sym);
        let rpc = rpc.clone();
        leptos::task::spawn_local(async move {
            if unstake {
                let data = ICallLedger::unstakeCall { amount: a }.abi_encode();
                crate::send::send(
                    ctx,
                    format!("Unstake {display}"),
                    TxRequest::call(ledger, data),
                )
                .await;
            } else if crate::send::ensure_allowance(ctx, &rpc, token, ledger, a, display.clone())
                .await
            {
                let data = ICallLedger::stakeCall { amount: a }.abi_encode();
                if crate::send::send(
                    ctx,
                    format!("Stake {display}"),
                    TxRequest::call(ledger, data),
                )
                .await
                {
                    amount.set(String::new());
                }
            }
        });
    };
    let go2 = go.clone();
    let sym = calls.stake_symbol.clone();
    view! {
        <div class="form" id="stake-form">
            <p id="my-stake">"Staked: "<Amount raw=me.stake decimals=dec unit=sym.clone() sig=6 />
                " · in your wallet: "<Amount raw=me.balance decimals=dec unit=sym.clone() sig=6 />
                {format!(" · {} open call(s)", me.open)}
                {(me.stake < min_stake).then(|| view! { <span class="muted">" · committing needs "<Amount raw=min_stake decimals=dec unit=sym.clone() sig=6 />" staked"</span> })}
            </p>
            <label>"Amount ("{sym.clone()}") "<input id="stake-amount" inputmode="decimal" placeholder="0.0" prop:value=move || amount.get() on:input=move |ev| amount.set(event_target_value(&ev)) /></label>
            " "<button class="primary" id="stake-button" on:click=move |_| go(false)>"Stake"</button>
            " "<button class="secondary" id="unstake-button" on:click=move |_| go2(true)>"Unstake"</button>
            {move || error.get().map(|e| view! { <ErrorBox message=e /> })}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn me() -> MyStake {
        let e18 = U256::from(10u64).pow(U256::from(18u8));
        MyStake {
            stake: e18 * U256::from(5u8),
            open: 0,
            balance: e18 * U256::from(2u8),
            allowance: U256::ZERO,
        }
    }

    #[test]
    fn amounts_are_checked_in_words_before_any_transaction() {
        let m = me();
        assert_eq!(
            check_amount("1.5", 18, "ROOT", &m, false).unwrap(),
            U256::from(1_500_000_000_000_000_000u64)
        );
        assert!(check_amount("3", 18, "ROOT", &m, false)
            .unwrap_err()
            .contains("Your wallet holds 2 ROOT"));
        assert!(check_amount("0", 18, "ROOT", &m, false).is_err());
        assert!(check_amount("abc", 18, "ROOT", &m, true).is_err());
        assert!(check_amount("5", 18, "ROOT", &m, true).is_ok());
        assert!(check_amount("5.1", 18, "ROOT", &m, true)
            .unwrap_err()
            .contains("5 ROOT staked"));
        let busy = MyStake { open: 2, ..m };
        assert!(check_amount("1", 18, "ROOT", &busy, true)
            .unwrap_err()
            .contains("2 open call(s)"));
    }
}
