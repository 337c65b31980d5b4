//! Work that waits for the page to be painted (D11, "First paint first").
//!
//! When a route's data is already in (the reads the page sent early), the app resolves the world,
//! decodes the data and builds the route's content in one browser task, and the browser paints only
//! when that task ends. Whatever else that task starts (the score column's module and its 24 h
//! reads, the chain clock's and ETH/USD reads) runs before the first paint unless it waits for
//! [`after_paint`]. In a CPU profile of the launch list on the emulated phone (issue 39), fetching the
//! score column's modules alone was about 0.14 s of that task.

/// Resolves in a browser task after the next frame has been painted: a timer set from the next
/// animation frame's callback, or, when no frame comes (a hidden tab paints none), after 100 ms.
/// Outside a browser build (native tests) it resolves at once.
pub async fn after_paint() {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        /// How long to wait for a frame that may never come, in milliseconds.
        const NO_FRAME_MS: i32 = 100;
        let Some(window) = web_sys::window() else {
            return;
        };
        let painted = js_sys::Promise::new(&mut |resolve, _| {
            let w = window.clone();
            let timer = resolve.clone();
            let frame = Closure::once_into_js(move || {
                // A timer set in the frame's callback runs after that frame's paint.
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&timer, 0);
            });
            let _ = window.request_animation_frame(frame.unchecked_ref());
            let _ =
                window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, NO_FRAME_MS);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(painted).await;
    }
}
