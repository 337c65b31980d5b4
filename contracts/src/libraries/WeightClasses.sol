// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {RewardMath} from "./RewardMath.sol";

/// @title WeightClasses: `omega_max` of a token's earning positions in logarithmic classes (C13, seed §5.3).
/// @notice Each earning weight is counted in class `RewardMath.classOf(omega)` (`2^(1/1024)` wide); a class keeps
/// the largest weight that entered it while it was non-empty. `max()` is that value for the highest non-empty
/// class, found through a two-level bitmap (262,144 classes: 1,024 words, indexed by 4 words) in constant gas.
/// When the heaviest position of the top class leaves while lighter ones of the same class stay, `max()` stays at
/// the old value: stale only on the high side (by less than 2^(1/1024)), which makes `D` larger and payouts lower,
/// never higher. It is exact when each class holds one weight or equal weights.
library WeightClasses {
    struct Class {
        uint64 count;
        uint192 maxWeight;
    }

    struct State {
        mapping(uint256 => Class) classes;
        mapping(uint256 => uint256) words; // level 0: bit (class & 255) of word (class >> 8)
        mapping(uint256 => uint256) index; // level 1: bit (word & 255) of index word (word >> 8)
    }

    error WeightTooLarge(uint256 weight);

    function insert(State storage self, uint256 weight) internal {
        if (weight == 0) return;
        if (weight > type(uint192).max) revert WeightTooLarge(weight);
        uint256 c = RewardMath.classOf(weight);
        Class storage k = self.classes[c];
        if (k.count == 0) {
            self.words[c >> 8] |= 1 << (c & 255);
            self.index[c >> 16] |= 1 << ((c >> 8) & 255);
        }
        k.count += 1;
        if (weight > k.maxWeight) k.maxWeight = uint192(weight);
    }

    function remove(State storage self, uint256 weight) internal {
        if (weight == 0) return;
        uint256 c = RewardMath.classOf(weight);
        Class storage k = self.classes[c];
        k.count -= 1;
        if (k.count == 0) {
            k.maxWeight = 0;
            uint256 w = self.words[c >> 8] & ~(1 << (c & 255));
            self.words[c >> 8] = w;
            if (w == 0) self.index[c >> 16] &= ~(1 << ((c >> 8) & 255));
        }
    }

    /// @notice The tracked `omega_max` (0 when no weight is counted).
    function max(State storage self) internal view returns (uint256) {
        for (uint256 i = 4; i > 0; --i) {
            uint256 idx = self.index[i - 1];
            if (idx == 0) continue;
            uint256 word = ((i - 1) << 8) | Math.log2(idx);
            uint256 c = (word << 8) | Math.log2(self.words[word]);
            return self.classes[c].maxWeight;
        }
        return 0;
    }
}
