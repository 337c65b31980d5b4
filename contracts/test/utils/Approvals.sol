// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {EpochRegistry} from "../../src/EpochRegistry.sol";

/// Builds `EpochRegistry.propose`'s approvals (C7a) in tests.
library Approvals {
    /// One member's approval: the 1-of-1 committee's whole proposal.
    function one(address member, bytes memory signature) internal pure returns (EpochRegistry.Approval[] memory a) {
        a = new EpochRegistry.Approval[](1);
        a[0] = EpochRegistry.Approval(member, signature);
    }
}
