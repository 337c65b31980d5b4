//! The Network page (D1): the deployment the app is a client of, and the person's other networks.
//! Switch between them, add one by URL or by pasting its description, set an RPC URL of one's own
//! and the node's log range. It works when the current network failed to load, which is when it
//! is needed most.

use crate::chain::network::{
    self, NetworkSettings, SavedNetwork, DEFAULT_LOG_RANGE, DEFAULT_LOG_REQUESTS, MAX_LOG_REQUESTS,
};
use crate::fmt;
use crate::state::{Ctx, Load};
use crate::ui::{ErrorBox, Loading};
use leptos::prelude::*;

/// Goes to the Network page afresh, so the app connects to the newly selected network (and a
/// `?network=` in the address no longer overrides the choice).
fn reconnect() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_href("/network");
    }
}

#[component]
pub fn NetworkPage() -> impl IntoView {
    let ctx = Ctx::get();
    let saved = RwSignal::new(network::saved());
    let notice = RwSignal::new(None::<String>);
    let current_key = move || match ctx.world.get() {
        Load::Ready(w) => Some(w.network.key()),
        _ => network::selected(),
    };
    view! {
        <section class="card" id="network-page">
            <h1>"Network"</h1>
            <p class="lede">"Eden is a client of a deployment, described by one small public document: its chain, RPC, contracts and where its publications are. Everything else is read from that chain and checked here."</p>
            {move || match ctx.world.get() {
                Load::Loading => view! { <Loading what="Connecting…" /> }.into_any(),
                Load::Failed(e) => view! {
                    <div id="network-error"><ErrorBox message=e.to_string() /></div>
                }.into_any(),
                Load::Ready(w) => {
                    let d = w.description().clone();
                    view! {
                        <dl class="kv" id="network-current">
                            <dt>"Name"</dt><dd id="network-current-name">{d.name.clone()}</dd>
                            <dt>"Chain id"</dt><dd>{d.chain_id}</dd>
                            <dt>"RPC in use"</dt><dd class="mono">{w.rpc_url.clone()}</dd>
                            <dt>"Log range"</dt><dd>{format!("{} blocks per request, {} requests at once", fmt::thousands(w.network.settings.log_range), w.network.settings.log_requests)}</dd>
                            <dt>"Deployment block"</dt><dd>{d.deployment_block}</dd>
                            {d.contracts.named().into_iter().map(|(k, a)| view! {
                                <dt>{k}</dt><dd class="mono">{a.to_checksum(None)}</dd>
                            }).collect_view()}
                            <dt>"Publications"</dt><dd class="mono">{d.publications.join(", ")}</dd>
                            <dt>"Source"</dt><dd class="mono">{w.network.source.clone().unwrap_or_else(|| "pasted".into())}</dd>
                        </dl>
                        {w.meta_warning.clone().map(|m| view! { <p class="muted" id="metadata-warning">{m}</p> })}
                    }.into_any()
                }
            }}
            {move || notice.get().map(|m| view! { <div class="result error" role="alert" id="network-notice">{m}</div> })}
        </section>
        {move || {
            let key = current_key()?;
            let n = saved.get().into_iter().find(|s| s.key() == key)?;
            Some(view! { <Settings network=n notice=notice /> })
        }}
        <section class="card">
            <h2>"Your networks"</h2>
            <ul class="networks" id="networks">
                {move || saved.get().into_iter().map(|n| {
                    let key = n.key();
                    let (k1, k2) = (key.clone(), key.clone());
                    let here = current_key().as_deref() == Some(key.as_str());
                    view! {
                        <li class="network-row" data-key=key.clone()>
                            <strong>{n.description.name.clone()}</strong>
                            <span class="muted">{format!(" chain {} · {}", n.description.chain_id, n.source.clone().unwrap_or_else(|| "pasted".into()))}</span>
                            {if here {
                                view! { <span class="badge open">"in use"</span> }.into_any()
                            } else {
                                view! {
                                    <button class="secondary small use-network" on:click=move |_| { network::select(Some(&k1)); reconnect(); }>"Use"</button>
                                    <button class="secondary small remove-network" on:click=move |_| { network::remove(&k2); saved.set(network::saved()); }>"Remove"</button>
                                }.into_any()
                            }}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <button class="secondary" id="use-local" on:click=move |_| { network::select(None); reconnect(); }>"Use the local chain (the default)"</button>
        </section>
        <AddNetwork notice=notice />
    }
}

/// The person's settings for a network: an RPC URL of their own, tried first, and the log range.
#[component]
fn Settings(network: SavedNetwork, notice: RwSignal<Option<String>>) -> impl IntoView {
    let rpc = RwSignal::new(network.settings.rpc_override.clone().unwrap_or_default());
    let range = RwSignal::new(network.settings.log_range.to_string());
    let requests = RwSignal::new(network.settings.log_requests.to_string());
    let save = move |_| {
        let Ok(log_requests) = requests.get_untracked().trim().parse::<usize>() else {
            notice.set(Some(format!(
                "log requests at once: '{}' is not a whole number",
                requests.get_untracked()
            )));
            return;
        };
        let log_range = match range
            .get_untracked()
            .trim()
            .replace([',', '_'], "")
            .parse::<u64>()
        {
            Ok(r) => r,
            Err(_) => {
                notice.set(Some(format!(
                    "log range: '{}' is not a whole number of blocks",
                    range.get_untracked()
                )));
                return;
            }
        };
        let url = rpc.get_untracked().trim().to_owned();
        let settings = NetworkSettings {
            rpc_override: (!url.is_empty()).then_some(url),
            log_range,
            log_requests,
        };
        if let Err(e) = settings.validate(&network.description) {
            notice.set(Some(e.to_string()));
            return;
        }
        network::set_settings(&network.key(), settings);
        reconnect();
    };
    view! {
        <section class="card">
            <h2>"Settings for this network"</h2>
            <label class="block">"Your own RPC URL (tried before the description's)"
                <input id="rpc-override" placeholder="https://…" prop:value=move || rpc.get() on:input=move |ev| rpc.set(event_target_value(&ev)) />
            </label>
            <label class="block">{format!("Log range: blocks per eth_getLogs request (default {})", fmt::thousands(DEFAULT_LOG_RANGE))}
                <input id="log-range" inputmode="numeric" prop:value=move || range.get() on:input=move |ev| range.set(event_target_value(&ev)) />
            </label>
            <label class="block">{format!("Log requests at once: eth_getLogs requests of one scan in flight together (default {DEFAULT_LOG_REQUESTS}, at most {MAX_LOG_REQUESTS})")}
                <input id="log-requests" inputmode="numeric" prop:value=move || requests.get() on:input=move |ev| requests.set(event_target_value(&ev)) />
            </label>
            <button class="primary" id="save-settings" on:click=save>"Save and reconnect"</button>
        </section>
    }
}

/// Adds a network by the URL of its description, or by pasting it.
#[component]
fn AddNetwork(notice: RwSignal<Option<String>>) -> impl IntoView {
    let url = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let keep = move |n: SavedNetwork| {
        let key = n.key();
        network::upsert(n);
        network::select(Some(&key));
        reconnect();
    };
    let add_url = move |_| {
        let u = url.get_untracked().trim().to_owned();
        if u.is_empty() {
            notice.set(Some("type the URL of a network description".into()));
            return;
        }
        busy.set(true);
        leptos::task::spawn_local(async move {
            match network::fetch_description(&u).await {
                Ok(description) => keep(SavedNetwork {
                    source: Some(u),
                    description,
                    settings: NetworkSettings::default(),
                }),
                Err(e) => {
                    notice.set(Some(e.to_string()));
                    busy.set(false);
                }
            }
        });
    };
    let add_pasted =
        move |_| match network::parse_description("you pasted", &pasted.get_untracked()) {
            Ok(description) => keep(SavedNetwork {
                source: None,
                description,
                settings: NetworkSettings::default(),
            }),
            Err(e) => notice.set(Some(e.to_string())),
        };
    view! {
        <section class="card">
            <h2>"Add a network"</h2>
            <label class="block">"The URL of its description (eden-network-v1)"
                <input id="network-url" placeholder="https://…/network.json" prop:value=move || url.get() on:input=move |ev| url.set(event_target_value(&ev)) />
            </label>
            <button class="primary" id="add-network-url" disabled=move || busy.get() on:click=add_url>"Add and use"</button>
            <label class="block">"Or paste the description"
                <textarea id="network-json" rows="6" spellcheck="false" prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <button class="secondary" id="add-network-json" on:click=add_pasted>"Add and use"</button>
            <p class="muted">"Networks you add are kept in this browser's local storage. Opening the app at "<code>"?network=<url>"</code>" adds and uses that network."</p>
        </section>
    }
}
