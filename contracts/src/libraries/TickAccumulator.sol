// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title TickAccumulator: a pool hook's truncated tick oracle (C16, seed §6.2).
/// @notice Records `tickCumulative` like a Uniswap v3 oracle, except that the recorded tick moves toward the pool's
/// tick by at most `MAX_TICK_MOVE_PER_SECOND` = 9,116 ticks per elapsed second (a one-block spike cannot drag a
/// TWAP far).
///
/// Model (decided, exact integers):
/// - `r` is the recorded tick. An update at `now` covers the seconds `(last.time, now]` during which the pool's tick
///   was `P` (the tick before the triggering swap: every swap first updates, so nothing moved the pool in between).
///   During second `k = 1 .. dt` the recorded tick is `r_k = r_0 + sign(P - r_0) * min(9116 * k, |P - r_0|)`, and
///   `tickCumulative += sum_k r_k` (closed form below); the new `r` is `r_dt`.
/// - Observations are append-only `(time, cumulative, r, P)`; `observe(t)` for a past `t` replays the same walk from
///   the observation at or before `t`, so a value once observable never changes. Before the first observation
///   (pool initialisation) it reverts `NotCovered`.
library TickAccumulator {
    /// @notice Largest recorded tick move per elapsed second (seed §6.2).
    int256 internal constant MAX_TICK_MOVE_PER_SECOND = 9_116;

    struct Observation {
        uint32 time;
        int56 cumulative; // tick cumulative at `time`
        int24 recorded; // recorded tick r at `time`
        int24 poolTick; // pool tick P held during (previous.time, time]
    }

    struct State {
        Observation[] obs;
    }

    error NotInitialized();
    error AlreadyInitialized();
    error NotCovered(uint32 target, uint32 oldest);
    error FutureTime(uint32 target, uint32 now_);

    function initialized(State storage self) internal view returns (bool) {
        return self.obs.length != 0;
    }

    function initializedAt(State storage self) internal view returns (uint32) {
        if (self.obs.length == 0) revert NotInitialized();
        return self.obs[0].time;
    }

    function length(State storage self) internal view returns (uint256) {
        return self.obs.length;
    }

    function at(State storage self, uint256 i) internal view returns (Observation memory) {
        return self.obs[i];
    }

    /// @notice First observation at pool initialisation: the recorded tick starts at the pool's tick.
    function initialize(State storage self, uint32 now_, int24 tick) internal {
        if (self.obs.length != 0) revert AlreadyInitialized();
        self.obs.push(Observation({time: now_, cumulative: 0, recorded: tick, poolTick: tick}));
    }

    /// @notice Accumulates up to `now_` with `poolTick` held since the last update (call before every swap).
    /// No-op within the same second.
    function update(State storage self, uint32 now_, int24 poolTick) internal {
        uint256 n = self.obs.length;
        if (n == 0) revert NotInitialized();
        Observation memory last = self.obs[n - 1];
        if (now_ <= last.time) return;
        (int56 cum, int24 r) = _walk(last, poolTick, now_ - last.time);
        self.obs.push(Observation({time: now_, cumulative: cum, recorded: r, poolTick: poolTick}));
    }

    /// @notice Tick cumulatives `secondsAgos[i]` before `now_`, `currentPoolTick` being the pool's tick now.
    function observe(State storage self, uint32 now_, int24 currentPoolTick, uint32[] memory secondsAgos)
        internal
        view
        returns (int56[] memory cums)
    {
        cums = new int56[](secondsAgos.length);
        for (uint256 i; i < secondsAgos.length; ++i) {
            if (secondsAgos[i] > now_) revert NotCovered(0, initializedAt(self));
            cums[i] = observeAt(self, now_, currentPoolTick, now_ - secondsAgos[i]);
        }
    }

    /// @notice Tick cumulative at `target <= now_`.
    function observeAt(State storage self, uint32 now_, int24 currentPoolTick, uint32 target)
        internal
        view
        returns (int56)
    {
        uint256 n = self.obs.length;
        if (n == 0) revert NotInitialized();
        if (target > now_) revert FutureTime(target, now_);
        if (target < self.obs[0].time) revert NotCovered(target, self.obs[0].time);
        // Last observation with time <= target.
        uint256 lo = 0;
        uint256 hi = n;
        while (hi - lo > 1) {
            uint256 mid = (lo + hi) / 2;
            if (self.obs[mid].time <= target) lo = mid;
            else hi = mid;
        }
        Observation memory o = self.obs[lo];
        if (o.time == target) return o.cumulative;
        int24 p = lo + 1 < n ? self.obs[lo + 1].poolTick : currentPoolTick;
        (int56 cum,) = _walk(o, p, target - o.time);
        return cum;
    }

    /// @notice The recorded tick now (what `r` would be after an update now).
    function recordedTickNow(State storage self, uint32 now_, int24 currentPoolTick) internal view returns (int24) {
        uint256 n = self.obs.length;
        if (n == 0) revert NotInitialized();
        Observation memory last = self.obs[n - 1];
        if (now_ <= last.time) return last.recorded;
        (, int24 r) = _walk(last, currentPoolTick, now_ - last.time);
        return r;
    }

    /// @dev Walks the recorded tick from `o.recorded` toward `p` for `dt` seconds; returns the cumulative at
    /// `o.time + dt` and the recorded tick then.
    function _walk(Observation memory o, int24 p, uint32 dt) private pure returns (int56, int24) {
        int256 r0 = o.recorded;
        int256 diff = int256(p) - r0;
        int256 dist = diff >= 0 ? diff : -diff;
        int256 s = diff >= 0 ? int256(1) : int256(-1);
        int256 t = int256(uint256(dt));
        // Seconds k with 9116 k < dist still move: k <= K = ceil(dist / 9116) - 1.
        int256 k = dist == 0 ? int256(0) : (dist + MAX_TICK_MOVE_PER_SECOND - 1) / MAX_TICK_MOVE_PER_SECOND - 1;
        int256 m = k < t ? k : t;
        int256 sum = m * r0 + s * MAX_TICK_MOVE_PER_SECOND * (m * (m + 1) / 2) + (t - m) * int256(p);
        int256 moved = MAX_TICK_MOVE_PER_SECOND * t;
        int256 r = r0 + s * (moved < dist ? moved : dist);
        return (int56(int256(o.cumulative) + sum), int24(r));
    }
}
