// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @notice The burn of OpenZeppelin's `ERC20Burnable`: launch tokens have it (the duel hook's buybacks and the
/// locker's pool-fee token side burn with it, so `totalSupply` falls).
interface IERC20Burnable {
    function burn(uint256 value) external;
}
