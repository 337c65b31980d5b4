//! Concurrent JSON-RPC requests to one node, coalesced into one HTTP request: a JSON-RPC batch,
//! the way viem's `http` transport batches with `batch: { wait }` (D3).
//!
//! 1. A request joins its node's queue ([`Coalescer::call`]). The first request of an empty queue
//!    schedules a flush, which first waits a moment (the `tick`: a few microtask turns in the
//!    browser), so every request the page's parts make meanwhile joins the same queue.
//!    A request equal to one already queued (the same method and parameters) joins that one: it is
//!    asked once and both get its answer (two parts of a page asking for the head, or for the same
//!    events, in the same moment).
//! 2. The flush sends the queue in batches of at most `max_batch` requests, at once. A queue of one
//!    request is sent as a plain request, as it would be without this module.
//! 3. Each answer is matched to its request by id and handed back; a request's own error (a revert)
//!    stays that request's, the others are unaffected.
//! 4. A batch that fails as a whole in transport (the node unreachable, rate-limiting after backoff, a
//!    server error) fails each of its requests with that error. A batch the node refuses as such (an
//!    error object instead of an array, or an HTTP 4xx: a node without batches) is sent again one
//!    request at a time, and the node is remembered as one that refuses batches.
//!
//! The flush runs as its own task (`spawn`), so a page part that stops waiting (a route left) never
//! leaves the requests that joined its batch unanswered. No Leptos, no browser types: the HTTP post,
//! the task spawner and the tick are given, so the native tests drive it.

use crate::chain::transport::{error_from, RpcError};
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// One request's answer: its result, or the node's error for it.
pub type Answer = Result<Value, RpcError>;

/// POSTs a JSON body to the node and parses the JSON answer (with its own backoff on rate limits).
pub type Post = Rc<dyn Fn(String) -> LocalBoxFuture<'static, Result<Value, RpcError>>>;
/// Runs a future as its own task.
pub type Spawn = Rc<dyn Fn(LocalBoxFuture<'static, ()>)>;
/// Resolves once the queue has waited long enough for others to join it.
pub type Tick = Rc<dyn Fn() -> LocalBoxFuture<'static, ()>>;

/// A request waiting in the queue.
struct Pending {
    method: String,
    params: Value,
    /// Where the answer goes, or the transport error of the HTTP request that carried it: one
    /// sender per caller that asked this exact request while it was queued.
    answers: Vec<oneshot::Sender<Result<Answer, RpcError>>>,
}

impl Pending {
    /// Hands `answer` to every caller that asked this request (one that stopped waiting dropped
    /// its receiver: nothing to hand back).
    fn answer(self, answer: &Result<Answer, RpcError>) {
        for a in self.answers {
            let _ = a.send(answer.clone());
        }
    }
}

/// One node's queue of requests waiting to be sent together.
pub struct Coalescer {
    post: Post,
    spawn: Spawn,
    tick: Tick,
    max_batch: usize,
    queue: RefCell<Vec<Pending>>,
    /// Set once the node refused a batch: its requests go one at a time from then on.
    refuses_batches: Cell<bool>,
}

impl Coalescer {
    /// A queue sending through `post`, flushing in tasks from `spawn` after `tick`, at most
    /// `max_batch` requests per HTTP request.
    pub fn new(post: Post, spawn: Spawn, tick: Tick, max_batch: usize) -> Rc<Self> {
        Rc::new(Self {
            post,
            spawn,
            tick,
            max_batch: max_batch.max(1),
            queue: RefCell::new(Vec::new()),
            refuses_batches: Cell::new(false),
        })
    }

    /// Queues one request now, and resolves to its answer; the outer error is the transport's, for
    /// the HTTP request that carried it.
    pub fn call(
        self: &Rc<Self>,
        method: &str,
        params: Value,
    ) -> impl std::future::Future<Output = Result<Answer, RpcError>> + 'static {
        let (answer, rx) = oneshot::channel();
        let first = {
            let mut q = self.queue.borrow_mut();
            if let Some(same) = q
                .iter_mut()
                .find(|p| p.method == method && p.params == params)
            {
                same.answers.push(answer);
                false
            } else {
                q.push(Pending {
                    method: method.to_owned(),
                    params,
                    answers: vec![answer],
                });
                q.len() == 1
            }
        };
        if first {
            (self.spawn)(Box::pin(Rc::clone(self).flush()));
        }
        async move {
            rx.await.unwrap_or_else(|_| {
                Err(RpcError::Network(
                    "the request was dropped before it was answered".into(),
                ))
            })
        }
    }

    /// Waits for the tick, then sends everything queued by then.
    async fn flush(self: Rc<Self>) {
        (self.tick)().await;
        let mut queued = std::mem::take(&mut *self.queue.borrow_mut());
        let mut chunks = Vec::new();
        while !queued.is_empty() {
            let rest = queued.split_off(queued.len().min(self.max_batch));
            chunks.push(std::mem::replace(&mut queued, rest));
        }
        futures::future::join_all(chunks.into_iter().map(|c| self.send_chunk(c))).await;
    }

    /// Sends one batch (a lone request as itself), and hands each answer back.
    async fn send_chunk(&self, chunk: Vec<Pending>) {
        if chunk.len() == 1 || self.refuses_batches.get() {
            futures::future::join_all(chunk.into_iter().map(|p| self.send_one(p))).await;
            return;
        }
        let body = Value::Array(
            chunk
                .iter()
                .enumerate()
                .map(|(i, p)| json!({ "jsonrpc": "2.0", "id": i, "method": p.method, "params": p.params }))
                .collect(),
        )
        .to_string();
        let answers = match (self.post)(body).await {
            // A node refusing the whole batch answers one error object.
            Ok(v) => match v.get("error") {
                Some(e) => Err(error_from(e)),
                None => batch_answers(&v, chunk.len()),
            },
            Err(e) => Err(e),
        };
        match answers {
            Ok(answers) => {
                for (p, a) in chunk.into_iter().zip(answers) {
                    p.answer(&Ok(a));
                }
            }
            Err(e) if is_transport_failure(&e) => {
                let failed = Err(e);
                for p in chunk {
                    p.answer(&failed);
                }
            }
            Err(_) => {
                self.refuses_batches.set(true);
                futures::future::join_all(chunk.into_iter().map(|p| self.send_one(p))).await;
            }
        }
    }

    /// Sends one request as a plain JSON-RPC request.
    async fn send_one(&self, p: Pending) {
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": p.method, "params": p.params })
            .to_string();
        let answer = (self.post)(body).await.map(|v| one_answer(&v));
        p.answer(&answer);
    }
}

/// Whether a failed HTTP request failed in transport (so sending its requests one at a time would fail
/// too), rather than being refused as a batch.
fn is_transport_failure(e: &RpcError) -> bool {
    matches!(
        e,
        RpcError::Network(_) | RpcError::RateLimited(_) | RpcError::Http { status: 500.., .. }
    )
}

/// A plain request's answer: its result or its error object.
fn one_answer(v: &Value) -> Answer {
    match (v.get("result"), v.get("error")) {
        (_, Some(e)) => Err(error_from(e)),
        (Some(r), None) => Ok(r.clone()),
        (None, None) => Err(RpcError::Decode("no result".into())),
    }
}

/// A JSON-RPC batch's answers, put back in request order by id (nodes may answer in any order); a
/// request the node left unanswered is that request's error.
///
/// # Errors
/// When the answer is not an array.
pub fn batch_answers(v: &Value, n: usize) -> Result<Vec<Answer>, RpcError> {
    let items = v
        .as_array()
        .ok_or_else(|| RpcError::Decode("a batch answer is not an array".into()))?;
    let mut out: Vec<Option<Answer>> = vec![None; n];
    for item in items {
        let Some(i) = item
            .get("id")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < n)
        else {
            continue;
        };
        out[i] = Some(one_answer(item));
    }
    Ok(out
        .into_iter()
        .map(|a| {
            a.unwrap_or_else(|| {
                Err(RpcError::Decode(
                    "the node did not answer this request".into(),
                ))
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::task::{Context, Poll, Waker};

    /// A one-thread executor: spawned tasks and the test's own futures, polled round-robin until
    /// the test's futures are done (every wait below is a yield, never a timer).
    #[derive(Default)]
    struct Exec {
        tasks: Rc<RefCell<Vec<LocalBoxFuture<'static, ()>>>>,
    }

    impl Exec {
        fn spawn(&self) -> Spawn {
            let tasks = Rc::clone(&self.tasks);
            Rc::new(move |f| tasks.borrow_mut().push(f))
        }

        fn run<T>(&self, f: impl Future<Output = T>) -> T {
            let mut f = std::pin::pin!(f);
            let mut cx = Context::from_waker(Waker::noop());
            for _ in 0..1000 {
                if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                    return v;
                }
                let mut running = std::mem::take(&mut *self.tasks.borrow_mut());
                running.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
                self.tasks.borrow_mut().extend(running);
            }
            panic!("never finished");
        }
    }

    /// A future that is pending once: the end of the current task.
    fn tick() -> Tick {
        Rc::new(|| {
            let mut once = false;
            Box::pin(std::future::poll_fn(move |_| {
                if once {
                    Poll::Ready(())
                } else {
                    once = true;
                    Poll::Pending
                }
            }))
        })
    }

    /// A node answering `eth_blockNumber` and `eth_chainId` with "0x10", reverting `eth_call`, in reverse order, and
    /// keeping every body it was sent. `refuse` answers batches as a node without batches does;
    /// `down` fails every request.
    fn node(bodies: Rc<RefCell<Vec<Value>>>, refuse: bool, down: bool) -> Post {
        Rc::new(move |body: String| {
            let bodies = Rc::clone(&bodies);
            Box::pin(async move {
                let v: Value = serde_json::from_str(&body).unwrap();
                bodies.borrow_mut().push(v.clone());
                if down {
                    return Err(RpcError::Network("connection refused".into()));
                }
                let answer = |r: &Value| match r["method"].as_str() {
                    Some("eth_blockNumber" | "eth_chainId") => {
                        json!({ "jsonrpc": "2.0", "id": r["id"], "result": "0x10" })
                    }
                    _ => {
                        json!({ "jsonrpc": "2.0", "id": r["id"], "error": { "code": 3, "message": "execution reverted" } })
                    }
                };
                Ok(match v.as_array() {
                    Some(_) if refuse => {
                        json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32600, "message": "batch requests are not supported" } })
                    }
                    Some(items) => Value::Array(items.iter().rev().map(answer).collect()),
                    None => answer(&v),
                })
            })
        })
    }

    /// An executor, the bodies the fake node was sent, and a queue in front of it.
    fn setup(
        refuse: bool,
        down: bool,
        max_batch: usize,
    ) -> (Exec, Rc<RefCell<Vec<Value>>>, Rc<Coalescer>) {
        let exec = Exec::default();
        let bodies = Rc::new(RefCell::new(Vec::new()));
        let c = Coalescer::new(
            node(Rc::clone(&bodies), refuse, down),
            exec.spawn(),
            tick(),
            max_batch,
        );
        (exec, bodies, c)
    }

    fn three(exec: &Exec, c: &Rc<Coalescer>) -> Vec<Result<Answer, RpcError>> {
        exec.run(async {
            let (a, b, d) = futures::join!(
                c.call("eth_blockNumber", json!([])),
                c.call("eth_call", json!([{ "to": "0x01" }, "latest"])),
                c.call("eth_chainId", json!([])),
            );
            vec![a, b, d]
        })
    }

    #[test]
    fn concurrent_requests_go_in_one_batch_and_are_answered_in_order() {
        let (exec, bodies, c) = setup(false, false, 250);
        let got = three(&exec, &c);
        assert_eq!(bodies.borrow().len(), 1, "one HTTP request");
        assert_eq!(bodies.borrow()[0].as_array().map(Vec::len), Some(3));
        assert_eq!(got[0], Ok(Ok(json!("0x10"))));
        assert!(
            matches!(&got[1], Ok(Err(RpcError::Revert(_)))),
            "{:?}",
            got[1]
        );
        assert_eq!(got[2], Ok(Ok(json!("0x10"))));
    }

    #[test]
    fn equal_requests_queued_together_are_asked_once_and_each_answered() {
        let (exec, bodies, c) = setup(false, false, 250);
        let got = exec.run(async {
            let (a, b, d, e) = futures::join!(
                c.call("eth_blockNumber", json!([])),
                c.call("eth_call", json!([{ "to": "0x01" }, "latest"])),
                c.call("eth_blockNumber", json!([])),
                c.call("eth_call", json!([{ "to": "0x01" }, "latest"])),
            );
            vec![a, b, d, e]
        });
        assert_eq!(bodies.borrow().len(), 1);
        assert_eq!(bodies.borrow()[0].as_array().map(Vec::len), Some(2));
        assert_eq!(got[0], Ok(Ok(json!("0x10"))));
        assert_eq!(got[2], Ok(Ok(json!("0x10"))));
        assert!(matches!(&got[1], Ok(Err(RpcError::Revert(_)))));
        assert_eq!(got[1], got[3]);
        // Once sent, the same request is a new one: a later read sees a later chain.
        bodies.borrow_mut().clear();
        exec.run(c.call("eth_blockNumber", json!([])))
            .unwrap()
            .unwrap();
        assert_eq!(bodies.borrow().len(), 1);
    }

    #[test]
    fn a_lone_request_is_sent_as_itself() {
        let (exec, bodies, c) = setup(false, false, 250);
        let got = exec.run(c.call("eth_blockNumber", json!([])));
        assert_eq!(got, Ok(Ok(json!("0x10"))));
        assert!(bodies.borrow()[0].is_object());
    }

    #[test]
    fn a_queue_longer_than_a_batch_is_split() {
        let (exec, bodies, c) = setup(false, false, 2);
        let got = three(&exec, &c);
        let sizes: Vec<_> = bodies
            .borrow()
            .iter()
            .map(|b| b.as_array().map_or(1, Vec::len))
            .collect();
        assert_eq!(sizes, vec![2, 1]);
        assert_eq!(got[2], Ok(Ok(json!("0x10"))));
    }

    #[test]
    fn a_node_refusing_batches_is_asked_one_request_at_a_time_from_then_on() {
        let (exec, bodies, c) = setup(true, false, 250);
        let got = three(&exec, &c);
        assert_eq!(got[0], Ok(Ok(json!("0x10"))));
        assert!(matches!(&got[1], Ok(Err(RpcError::Revert(_)))));
        assert!(c.refuses_batches.get());
        assert_eq!(
            bodies.borrow().len(),
            4,
            "the refused batch, then three requests"
        );
        bodies.borrow_mut().clear();
        three(&exec, &c);
        assert!(bodies.borrow().iter().all(Value::is_object));
        assert_eq!(bodies.borrow().len(), 3);
    }

    #[test]
    fn a_transport_failure_fails_each_request_of_the_batch() {
        let (exec, bodies, c) = setup(false, true, 250);
        let got = three(&exec, &c);
        assert!(got.iter().all(|a| matches!(a, Err(RpcError::Network(_)))));
        assert_eq!(bodies.borrow().len(), 1, "not re-sent one by one");
        assert!(!c.refuses_batches.get());
    }

    #[test]
    fn a_caller_that_stops_waiting_leaves_the_others_answered() {
        let (exec, _, c) = setup(false, false, 250);
        drop(c.call("eth_blockNumber", json!([])));
        let got = exec.run(c.call("eth_blockNumber", json!([])));
        assert_eq!(got, Ok(Ok(json!("0x10"))));
    }

    #[test]
    fn batch_answers_are_matched_by_id() {
        let v = json!([
            { "jsonrpc": "2.0", "id": 2, "result": "0x02" },
            { "jsonrpc": "2.0", "id": 0, "result": "0x" },
            { "jsonrpc": "2.0", "id": 1, "error": { "code": 3, "message": "execution reverted" } },
            { "jsonrpc": "2.0", "id": 9, "result": "0x09" },
        ]);
        let a = batch_answers(&v, 4).unwrap();
        assert_eq!(a[0], Ok(json!("0x")));
        assert!(matches!(a[1], Err(RpcError::Revert(_))));
        assert_eq!(a[2], Ok(json!("0x02")));
        assert_eq!(
            a[3],
            Err(RpcError::Decode(
                "the node did not answer this request".into()
            ))
        );
        assert!(batch_answers(&json!({"id": 0}), 1).is_err());
    }
}
