// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";

/// @title LaunchToken: a launched token with a fixed supply `S`, all minted to the launchpad's curve (C19).
/// @notice 18 decimals, no owner, no mint after construction, no transfer restrictions. Burnable (OpenZeppelin
/// `ERC20Burnable`: any holder may burn its own tokens, or an allowance's), so a duel's buyback lowers `totalSupply`
/// (B5: "the winner's supply shrinks").
contract LaunchToken is ERC20Burnable {
    constructor(string memory name_, string memory symbol_, uint256 supply, address curve) ERC20(name_, symbol_) {
        _mint(curve, supply);
    }
}
